// Package redistest starts real redis-server processes for tests: one node,
// several independent nodes, a primary with a replica, and a three-primary
// Redis Cluster. Every server listens on a free loopback port, keeps its files
// in the test's temporary directory and is stopped when the test ends.
//
// Without redis-server on PATH the tests that need it are skipped with a
// message naming the Debian package to install, unless the environment
// variable named by RequireEnv is set (CI sets it), in which case they fail.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/internal/redisproc"
	"github.com/redis/go-redis/v9"
)

// RequireEnv names the environment variable that turns a missing
// redis-server into a test failure instead of a skip.
const RequireEnv = "LOCKLINT_REQUIRE_REDIS"

// startTimeout bounds how long a server may take to accept connections.
const startTimeout = 15 * time.Second

// Binary returns the path of redis-server, or skips (or fails, when
// RequireEnv is set) the test when it is not installed.
func Binary(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err == nil {
		return path
	}
	msg := "redis-server not found on PATH: install the Debian package redis-server (apt-get install redis-server)"
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("%s; %s is set, so this is a failure", msg, RequireEnv)
	}
	t.Skip(msg)
	return ""
}

// Server is one redis-server process on a loopback port.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	args []string
	conf string // config file text, written once before the first start; empty: none
	Port int

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited
	log    *os.File
}

// Addr returns host:port of the server.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// URL returns a redis:// URL for the server.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Client returns a go-redis client for the server, closed when the test ends.
func (s *Server) Client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	s.t.Cleanup(func() { _ = c.Close() })
	return c
}

// Start starts one redis-server with the given extra configuration
// arguments (for example "--appendonly", "yes").
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	return startServer(t, "", args)
}

// startServer starts a redis-server whose config file has the text conf
// (none if empty) followed by args.
func startServer(t testing.TB, conf string, args []string) *Server {
	t.Helper()
	bin := Binary(t)
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatalf("redistest: free port: %v", err)
		}
		dir, err := os.MkdirTemp(t.TempDir(), fmt.Sprintf("redis-%d-", port))
		if err != nil {
			t.Fatalf("redistest: %v", err)
		}
		s := &Server{t: t, bin: bin, dir: dir, args: args, conf: conf, Port: port}
		if lastErr = s.start(); lastErr == nil {
			t.Cleanup(s.Stop)
			return s
		}
		s.Stop()
	}
	t.Fatalf("redistest: starting redis-server: %v", lastErr)
	return nil
}

// StartN starts n independent servers.
func StartN(t testing.TB, n int, args ...string) []*Server {
	t.Helper()
	servers := make([]*Server, n)
	for i := range servers {
		servers[i] = Start(t, args...)
	}
	return servers
}

// StartReplicated starts a primary and one replica attached to it, and
// waits until the replication link is up.
func StartReplicated(t testing.TB) (primary, replica *Server) {
	t.Helper()
	// Without the default 5 s diskless-sync delay the replica attaches at once.
	primary = Start(t, "--repl-diskless-sync-delay", "0")
	replica = Start(t, "--replicaof", "127.0.0.1", strconv.Itoa(primary.Port))
	waitFor(t, "replica link up", func(ctx context.Context) bool {
		info, err := replica.Client().Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "master_link_status:up")
	})
	waitFor(t, "primary sees replica", func(ctx context.Context) bool {
		info, err := primary.Client().Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "connected_slaves:1")
	})
	return primary, replica
}

// StartCluster starts a Redis Cluster of three primaries (no replicas)
// with the 16384 slots split between them, and waits until every node
// reports cluster_state:ok.
func StartCluster(t testing.TB) []*Server {
	t.Helper()
	nodes := make([]*Server, 3)
	for i := range nodes {
		nodes[i] = Start(t, "--cluster-enabled", "yes",
			"--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "2000")
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	ranges := [][2]int{{0, 5460}, {5461, 10922}, {10923, 16383}}
	for i, n := range nodes {
		c := n.Client()
		if err := c.Do(ctx, "CLUSTER", "SET-CONFIG-EPOCH", i+1).Err(); err != nil {
			t.Fatalf("redistest: cluster epoch: %v", err)
		}
		if err := c.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", ranges[i][0], ranges[i][1]).Err(); err != nil {
			t.Fatalf("redistest: cluster addslots: %v", err)
		}
	}
	first := nodes[0].Client()
	for _, n := range nodes[1:] {
		if err := first.Do(ctx, "CLUSTER", "MEET", "127.0.0.1", n.Port).Err(); err != nil {
			t.Fatalf("redistest: cluster meet: %v", err)
		}
	}
	for _, n := range nodes {
		c := n.Client()
		waitFor(t, "cluster_state:ok on "+n.Addr(), func(ctx context.Context) bool {
			info, err := c.ClusterInfo(ctx).Result()
			return err == nil && strings.Contains(info, "cluster_state:ok") &&
				strings.Contains(info, "cluster_known_nodes:3")
		})
	}
	return nodes
}

// ClusterAddrs returns the addresses of the nodes.
func ClusterAddrs(nodes []*Server) []string {
	addrs := make([]string, len(nodes))
	for i, n := range nodes {
		addrs[i] = n.Addr()
	}
	return addrs
}

// Kill stops the server abruptly (SIGKILL); Restart brings it back on the
// same port with the same data directory.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		_ = s.cmd.Process.Kill()
		<-s.exited
		s.cmd = nil
	}
}

// Restart starts a killed server again on the same port.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		if err = s.start(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond) // the old socket may linger briefly
	}
	s.t.Fatalf("redistest: restarting redis-server on %d: %v", s.Port, err)
}

// Stop stops the server and closes its log.
func (s *Server) Stop() {
	s.Kill()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log != nil {
		_ = s.log.Close()
		s.log = nil
	}
}

func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	args := append([]string{
		"--port", strconv.Itoa(s.Port),
		"--bind", "127.0.0.1",
		"--dir", s.dir,
		"--save", "",
		"--appendonly", "no",
		"--daemonize", "no",
		"--protected-mode", "no",
	}, s.args...)
	if s.conf != "" {
		// redis-server reads a config file only as its first argument. It
		// is written once: a sentinel rewrites it with what it learned,
		// which a Restart keeps.
		path := filepath.Join(s.dir, "redis.conf")
		if _, err := os.Stat(path); os.IsNotExist(err) {
			if err := os.WriteFile(path, []byte(s.conf), 0o600); err != nil {
				return err
			}
		}
		args = append([]string{path}, args...)
	}
	if s.log == nil {
		f, err := os.Create(filepath.Join(s.dir, "redis.log"))
		if err != nil {
			return err
		}
		s.log = f
	}
	cmd := exec.Command(s.bin, args...)
	cmd.Stdout = s.log
	cmd.Stderr = s.log
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		ok, err := redisproc.Answers(s.Addr(), cmd.Process.Pid)
		if err != nil {
			// The port was taken by another server after all (a
			// test of another package): ours cannot bind it.
			_ = cmd.Process.Kill()
			<-exited
			return err
		}
		if ok {
			s.cmd, s.exited = cmd, exited
			return nil
		}
		select {
		case <-exited: // e.g. the port was taken after all
			return fmt.Errorf("redis-server on port %d exited: %s", s.Port, tail(filepath.Join(s.dir, "redis.log")))
		case <-time.After(20 * time.Millisecond):
		}
	}
	_ = cmd.Process.Kill()
	<-exited
	return fmt.Errorf("redis-server on port %d did not start: %s", s.Port, tail(filepath.Join(s.dir, "redis.log")))
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitFor(t testing.TB, what string, ok func(ctx context.Context) bool) {
	t.Helper()
	waitUntil(t, what, startTimeout, func(ctx context.Context) error {
		if ok(ctx) {
			return nil
		}
		return fmt.Errorf("not yet")
	})
}

// waitUntil polls check every 50 ms until it returns nil, and fails the
// test with check's last error once timeout has passed.
func waitUntil(t testing.TB, what string, timeout time.Duration, check func(ctx context.Context) error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var err error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = check(ctx)
		cancel()
		if err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("redistest: timed out after %v waiting for %s: %v", timeout, what, err)
}

func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}
