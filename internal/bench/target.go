package bench

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Bounds on talking to a server that may not answer: a bad address or a
// firewall must give a clear error within seconds, never a hang.
const (
	DialTimeout  = 2 * time.Second
	IOTimeout    = 3 * time.Second
	checkTimeout = 5 * time.Second
)

// Spec is the server the user asked to measure. The zero Spec means the
// embedded miniredis.
type Spec struct {
	Redis   []string // redis:// or rediss:// URLs; more than one means Redlock across nodes
	Cluster []string // seed addresses (host:port or URLs) of a Redis Cluster
	Spawn   bool     // start a redis-server from PATH for the run
	// PoolSize is the connection pool size per node; it must cover the
	// largest number of concurrent workers or the pool becomes the bottleneck.
	PoolSize int
}

// Kinds of target.
const (
	KindEmbedded = "embedded"
	KindSpawned  = "spawned"
	KindRedis    = "redis"
	KindRedlock  = "redlock"
	KindCluster  = "cluster"
)

// Endpoint is one node's connection details. Password is never printed;
// String redacts it.
type Endpoint struct {
	Addr     string
	Username string
	Password string
	DB       int
	TLS      *tls.Config
}

// String returns a URL for display, without the password.
func (e Endpoint) String() string {
	scheme := "redis"
	if e.TLS != nil {
		scheme = "rediss"
	}
	u := url.URL{Scheme: scheme, Host: e.Addr}
	switch {
	case e.Password != "":
		u.User = url.UserPassword(e.Username, "xxxxx")
	case e.Username != "":
		u.User = url.User(e.Username)
	}
	if e.DB != 0 {
		u.Path = fmt.Sprintf("/%d", e.DB)
	}
	return u.String()
}

// Target is an open connection to the server(s) being measured.
type Target struct {
	Kind      string
	Endpoints []Endpoint
	// Clients holds one client per independent node (several for Redlock),
	// or a single cluster client.
	Clients []redis.UniversalClient
	Server  string // server software and version, as reported by the server
	Note    string // caveats that belong next to the figures
	// Commands counts every command the go-redis clients send; adapters
	// with their own client add to it too.
	Commands atomic.Int64
	// RoundTrips counts requests: a pipeline is one round trip however
	// many commands it carries.
	RoundTrips atomic.Int64

	closers []func()
}

// Client returns the first (or only) client.
func (t *Target) Client() redis.UniversalClient { return t.Clients[0] }

// Describe returns a one-line, password-free description of the target.
func (t *Target) Describe() string {
	addrs := make([]string, len(t.Endpoints))
	for i, e := range t.Endpoints {
		addrs[i] = e.String()
	}
	return fmt.Sprintf("%s %s (%s)", t.Kind, strings.Join(addrs, ","), t.Server)
}

// Close closes the clients and stops any server the target started.
func (t *Target) Close() {
	for _, c := range t.Clients {
		_ = c.Close()
	}
	for i := len(t.closers) - 1; i >= 0; i-- {
		t.closers[i]()
	}
}

// Open connects to the target described by spec and checks that it answers.
func Open(ctx context.Context, spec Spec) (*Target, error) {
	if spec.PoolSize <= 0 {
		spec.PoolSize = 64
	}
	modes := 0
	if len(spec.Redis) > 0 {
		modes++
	}
	if len(spec.Cluster) > 0 {
		modes++
	}
	if spec.Spawn {
		modes++
	}
	if modes > 1 {
		return nil, errors.New("--redis, --cluster and --spawn are mutually exclusive")
	}
	t := &Target{}
	var err error
	switch {
	case spec.Spawn:
		err = t.openSpawned(ctx, spec)
	case len(spec.Cluster) > 0:
		err = t.openCluster(ctx, spec)
	case len(spec.Redis) > 0:
		err = t.openNodes(ctx, spec)
	default:
		err = t.openEmbedded(ctx, spec)
	}
	if err != nil {
		t.Close()
		return nil, t.scrub(err)
	}
	return t, nil
}

func (t *Target) openSpawned(ctx context.Context, spec Spec) error {
	s, err := Spawn(ctx)
	if err != nil {
		return err
	}
	t.closers = append(t.closers, s.Stop)
	t.Kind = KindSpawned
	t.Endpoints = []Endpoint{{Addr: s.Addr}}
	if err := t.connectNodes(ctx, spec); err != nil {
		return err
	}
	t.Server = serverVersion(ctx, t.Client()) + ", started by lockbench from " + s.Binary
	return nil
}

func (t *Target) openNodes(ctx context.Context, spec Spec) error {
	for _, raw := range spec.Redis {
		e, err := ParseEndpoint(raw)
		if err != nil {
			return err
		}
		t.Endpoints = append(t.Endpoints, e)
	}
	t.Kind = KindRedis
	if len(t.Endpoints) > 1 {
		t.Kind = KindRedlock
		t.Note = "several independent nodes: only implementations with a Redlock mode are measured"
	}
	if err := t.connectNodes(ctx, spec); err != nil {
		return err
	}
	t.Server = serverVersion(ctx, t.Client())
	return nil
}

func (t *Target) connectNodes(ctx context.Context, spec Spec) error {
	for _, e := range t.Endpoints {
		c := redis.NewClient(&redis.Options{
			Addr: e.Addr, Username: e.Username, Password: e.Password, DB: e.DB, TLSConfig: e.TLS,
			DialTimeout: DialTimeout, ReadTimeout: IOTimeout, WriteTimeout: IOTimeout,
			PoolSize: spec.PoolSize, MaxRetries: -1, DialerRetries: 1,
		})
		c.AddHook(countHook{&t.Commands, &t.RoundTrips})
		t.Clients = append(t.Clients, c)
		if err := check(ctx, c, e.String()); err != nil {
			return err
		}
	}
	return nil
}

func (t *Target) openCluster(ctx context.Context, spec Spec) error {
	var addrs []string
	var auth Endpoint
	for _, raw := range spec.Cluster {
		for _, part := range strings.Split(raw, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			e, err := ParseEndpoint(part)
			if err != nil {
				return err
			}
			if e.Password != "" || e.Username != "" || e.TLS != nil {
				auth = e
			}
			addrs = append(addrs, e.Addr)
		}
	}
	if len(addrs) == 0 {
		return errors.New("--cluster needs at least one host:port")
	}
	for _, a := range addrs {
		e := auth
		e.Addr = a
		t.Endpoints = append(t.Endpoints, e)
	}
	t.Kind = KindCluster
	// Every seed must be a cluster node: a plain server would make the
	// cluster client fail later with a far less clear error.
	for _, e := range t.Endpoints {
		c := redis.NewClient(&redis.Options{
			Addr: e.Addr, Username: e.Username, Password: e.Password, TLSConfig: e.TLS,
			DialTimeout: DialTimeout, ReadTimeout: IOTimeout, WriteTimeout: IOTimeout, MaxRetries: -1, DialerRetries: 1,
		})
		err := check(ctx, c, e.String())
		if err == nil {
			cctx, cancel := context.WithTimeout(ctx, checkTimeout)
			var info string
			info, err = c.ClusterInfo(cctx).Result()
			cancel()
			switch {
			case err != nil && strings.Contains(err.Error(), "cluster support disabled"):
				err = fmt.Errorf("%s is not a Redis Cluster node (cluster support disabled); use --redis for a single server", e.String())
			case err != nil:
				err = fmt.Errorf("%s: CLUSTER INFO: %w", e.String(), err)
			case !strings.Contains(info, "cluster_state:ok"):
				err = fmt.Errorf("%s is a cluster node but the cluster is not ready (cluster_state is not ok)", e.String())
			}
		}
		_ = c.Close()
		if err != nil {
			return err
		}
	}
	c := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs: addrs, Username: auth.Username, Password: auth.Password, TLSConfig: auth.TLS,
		DialTimeout: DialTimeout, ReadTimeout: IOTimeout, WriteTimeout: IOTimeout,
		PoolSize: spec.PoolSize, MaxRetries: -1,
	})
	c.AddHook(countHook{&t.Commands, &t.RoundTrips})
	t.Clients = []redis.UniversalClient{c}
	if err := check(ctx, c, "cluster "+strings.Join(addrs, ",")); err != nil {
		return err
	}
	t.Server = serverVersion(ctx, c) + ", cluster"
	return nil
}

// ParseEndpoint parses a redis:// or rediss:// URL, or a bare host:port.
// Errors never contain the password.
func ParseEndpoint(raw string) (Endpoint, error) {
	if !strings.Contains(raw, "://") {
		host, port, err := net.SplitHostPort(raw)
		if err != nil || host == "" || port == "" {
			return Endpoint{}, fmt.Errorf("malformed address %q: want host:port or redis://[user:password@]host:port[/db]", RedactURL(raw))
		}
		return Endpoint{Addr: raw}, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Endpoint{}, fmt.Errorf("malformed URL %s: want redis://[user:password@]host:port[/db] or rediss://[user:password@]host:port[/db]", RedactURL(raw))
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return Endpoint{}, fmt.Errorf("malformed URL %s: scheme must be redis:// or rediss://", RedactURL(raw))
	}
	if u.Host == "" {
		return Endpoint{}, fmt.Errorf("malformed URL %s: no host", RedactURL(raw))
	}
	opt, err := redis.ParseURL(raw)
	if err != nil {
		// go-redis errors may quote the URL; say what is wrong ourselves.
		msg := strings.TrimPrefix(err.Error(), "redis: ")
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "xxxxx")
			msg = strings.ReplaceAll(msg, url.QueryEscape(p), "xxxxx")
		}
		return Endpoint{}, fmt.Errorf("malformed URL %s: %s", RedactURL(raw), msg)
	}
	return Endpoint{Addr: opt.Addr, Username: opt.Username, Password: opt.Password, DB: opt.DB, TLS: opt.TLSConfig}, nil
}

// RedactURL replaces the password in a URL-like string with "xxxxx". It
// works on strings url.Parse rejects, too.
func RedactURL(raw string) string {
	scheme := ""
	rest := raw
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, rest = raw[:i+3], raw[i+3:]
	}
	// userinfo ends at the last '@' before the first '/', '?' or '#'.
	end := len(rest)
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		end = i
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return raw
	}
	user := rest[:at]
	if i := strings.Index(user, ":"); i >= 0 {
		user = user[:i+1] + "xxxxx"
	} else if scheme == "" || strings.HasPrefix(scheme, "redis") {
		// "redis://secret@host" is a password-only URL for go-redis.
		user = "xxxxx"
	}
	return scheme + user + rest[at:]
}

// scrub removes every configured password from err's text; a belt to the
// braces of never formatting one.
func (t *Target) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	changed := false
	for _, e := range t.Endpoints {
		if e.Password != "" && strings.Contains(msg, e.Password) {
			msg = strings.ReplaceAll(msg, e.Password, "xxxxx")
			changed = true
		}
	}
	if !changed {
		return err
	}
	return errors.New(msg)
}

// check pings c and turns the usual failures into one clear sentence.
func check(ctx context.Context, c redis.UniversalClient, where string) error {
	cctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	err := c.Ping(cctx).Err()
	if err == nil {
		return nil
	}
	msg := err.Error()
	var ne net.Error
	switch {
	case strings.Contains(msg, "WRONGPASS"), strings.Contains(msg, "invalid password"),
		strings.Contains(msg, "invalid username-password"):
		return fmt.Errorf("authentication failed at %s: wrong user or password", where)
	case strings.Contains(msg, "NOAUTH"):
		return fmt.Errorf("authentication required at %s: put user and password in the URL (redis://user:password@host:port)", where)
	case strings.Contains(msg, "without any password configured"):
		return fmt.Errorf("%s has no password configured but the URL gives one", where)
	case strings.Contains(msg, "connection refused"):
		return fmt.Errorf("cannot reach %s: connection refused", where)
	case strings.Contains(msg, "no such host"):
		return fmt.Errorf("cannot reach %s: unknown host", where)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("cannot reach %s: no answer within %s", where, checkTimeout)
	case strings.Contains(msg, "tls:"), strings.Contains(msg, "x509:"):
		return fmt.Errorf("TLS handshake with %s failed: %s", where, msg)
	}
	return fmt.Errorf("%s: %s", where, msg)
}

func serverVersion(ctx context.Context, c redis.UniversalClient) string {
	cctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	info, err := c.Info(cctx, "server").Result()
	if err != nil {
		return "redis (version unknown)"
	}
	name, version := "redis", ""
	for _, line := range strings.Split(info, "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "redis_version:"); ok {
			version = v
		}
		if v, ok := strings.CutPrefix(line, "valkey_version:"); ok {
			name, version = "valkey", v
		}
	}
	if version == "" {
		return name + " (version unknown)"
	}
	return name + " " + version
}

// countHook counts commands on the wire, so that "commands per grant" is
// measured rather than assumed.
type countHook struct{ cmds, trips *atomic.Int64 }

func (h countHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.cmds.Add(1)
		h.trips.Add(1)
		return next(ctx, cmd)
	}
}

func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.cmds.Add(int64(len(cmds)))
		h.trips.Add(1)
		return next(ctx, cmds)
	}
}
