package safelock_test

// Reliability tests: a stale holder, a server killed and restarted during a
// hold, and connections stalled or cut by a proxy, each watched through the
// fence helpers at a protected resource (a SQLite row and a key on a
// separate redis-server).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locklint/locklint/internal/faultproxy"
	"github.com/locklint/locklint/internal/redistest"
	"github.com/locklint/locklint/safelock"
	"github.com/locklint/locklint/safelock/fence"
	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
	_ "modernc.org/sqlite"
)

const (
	// overrun is how long past its ctx deadline a call may take to return
	// before the test calls it a failure to honour ctx. Clients in these
	// tests have a 30 s read timeout, so a call bounded by the socket
	// timeout instead of ctx stands out.
	overrun = 3 * time.Second
	// hang is how long past its ctx deadline a call may take at all.
	hang = 20 * time.Second
	// readTimeout is deliberately long: only ctx should bound the calls.
	readTimeout = 30 * time.Second
)

// checkLeaks verifies, after every other cleanup of the test has run, that
// the test left no goroutine behind.
func checkLeaks(t *testing.T) {
	t.Helper()
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}

// bounded runs fn with a ctx that ends after d. It fails the test when fn
// returns more than overrun after that deadline, and stops it when fn hangs.
func bounded(t *testing.T, d time.Duration, what string, fn func(ctx context.Context) error) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	errc := make(chan error, 1)
	go func() { errc <- fn(ctx) }()
	select {
	case err := <-errc:
		if late := time.Since(start) - d; late > overrun {
			t.Errorf("%s returned %v after its ctx deadline (%v)", what, late.Round(time.Millisecond), err)
		}
		return err
	case <-time.After(d + hang):
		t.Fatalf("%s hung: no return %v after its ctx deadline", what, hang)
		return nil
	}
}

func waitClosed(t *testing.T, ch <-chan struct{}, within time.Duration, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(within):
		t.Fatalf("%s: not closed within %v", what, within)
	}
}

// waitKeyGone polls until key no longer exists.
func waitKeyGone(t *testing.T, c redis.Cmdable, key string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		n, err := c.Exists(ctx, key).Result()
		cancel()
		if err == nil && n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("key %s still there (%v)", key, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func shortCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// resource is what the lock protects: a SQLite row written with a fenced
// upsert and a key on its own redis-server written with fence.SetRedis.
// Triggers copy every write the row accepts into a history, in commit
// order, so the test checks what the resource accepted, not what the
// helpers reported.
type resource struct {
	t     *testing.T
	db    *sql.DB
	rdb   *redis.Client
	table fence.Table
	// writes SetRedis accepted, in call order (calls are sequential)
	redisAccepted []int64
}

const resourceKey = "doc:1"

func newResource(t *testing.T) *resource {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "resource.db")+"?_pragma=busy_timeout(20000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	for _, q := range []string{
		`CREATE TABLE docs (id TEXT PRIMARY KEY, owner TEXT, fence INTEGER, token TEXT)`,
		`CREATE TABLE history (seq INTEGER PRIMARY KEY AUTOINCREMENT, fence INTEGER, owner TEXT)`,
		`CREATE TRIGGER docs_ins AFTER INSERT ON docs BEGIN INSERT INTO history (fence, owner) VALUES (NEW.fence, NEW.owner); END`,
		`CREATE TRIGGER docs_upd AFTER UPDATE ON docs BEGIN INSERT INTO history (fence, owner) VALUES (NEW.fence, NEW.owner); END`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return &resource{
		t:     t,
		db:    db,
		rdb:   redistest.Start(t).Client(),
		table: fence.Table{Name: "docs", IDColumn: "id", FenceColumn: "fence", TokenColumn: "token"},
	}
}

// write writes as the lease's holder through both fence helpers and
// reports whether the resource accepted it. Both must agree.
func (r *resource) write(l *safelock.Lease) bool {
	r.t.Helper()
	ctx := shortCtx(r.t)
	sqlOK, err := r.table.Upsert(ctx, r.db, resourceKey, l, fence.Set("owner", l.Token()))
	if err != nil {
		r.t.Fatalf("fenced SQL write (fence %d): %v", l.Fence(), err)
	}
	redisOK, err := fence.SetRedis(ctx, r.rdb, resourceKey, l, l.Token())
	if err != nil {
		r.t.Fatalf("fenced Redis write (fence %d): %v", l.Fence(), err)
	}
	if sqlOK != redisOK {
		r.t.Fatalf("fence %d: SQL accepted=%v, Redis accepted=%v", l.Fence(), sqlOK, redisOK)
	}
	if redisOK {
		r.redisAccepted = append(r.redisAccepted, l.Fence())
	}
	return sqlOK
}

// owner returns the token of the last accepted writer, as the row and the
// Redis key hold it.
func (r *resource) owner() string {
	r.t.Helper()
	var owner string
	if err := r.db.QueryRow(`SELECT owner FROM docs WHERE id = ?`, resourceKey).Scan(&owner); err != nil {
		r.t.Fatal(err)
	}
	if v := r.rdb.Get(shortCtx(r.t), resourceKey).Val(); v != owner {
		r.t.Fatalf("row owner %q, Redis value %q", owner, v)
	}
	return owner
}

// check asserts the safety property at the resource: accepted fences never
// go down, and no fence was accepted from two different holders (two leases
// granted with the same fence would both pass an equal-fence check).
func (r *resource) check() {
	r.t.Helper()
	rows, err := r.db.Query(`SELECT fence, owner FROM history ORDER BY seq`)
	if err != nil {
		r.t.Fatal(err)
	}
	defer rows.Close()
	var last int64
	owners := map[int64]string{}
	for rows.Next() {
		var f int64
		var owner string
		if err := rows.Scan(&f, &owner); err != nil {
			r.t.Fatal(err)
		}
		if f < last {
			r.t.Errorf("the row accepted fence %d after fence %d", f, last)
		}
		if o, ok := owners[f]; ok && o != owner {
			r.t.Errorf("the row accepted fence %d from two holders (%s, %s): a double grant", f, o, owner)
		}
		owners[f], last = owner, f
	}
	if err := rows.Err(); err != nil {
		r.t.Fatal(err)
	}
	for i := 1; i < len(r.redisAccepted); i++ {
		if r.redisAccepted[i] < r.redisAccepted[i-1] {
			r.t.Errorf("Redis accepted fence %d after %d", r.redisAccepted[i], r.redisAccepted[i-1])
		}
	}
}

// TestReliabilityStaleHolder: lease A expires while its holder is paused,
// B acquires; A's Release and Renew report ErrLeaseLost and leave B's lock
// alone, and A's late write is refused by both fence helpers while B's
// writes go through.
func TestReliabilityStaleHolder(t *testing.T) {
	checkLeaks(t)
	res := newResource(t)
	c := redistest.Start(t).Client()
	locker := closing(t, safelock.New(c))
	ctx := shortCtx(t)
	const key = "stale-holder"

	a, err := locker.TryAcquire(ctx, key, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !res.write(a) {
		t.Fatal("A's write while holding was refused")
	}
	// A pauses (a GC pause, a stopped VM) past its ttl.
	waitClosed(t, a.Done(), 30*time.Second, "A.Done")
	waitKeyGone(t, c, key)

	b, err := locker.TryAcquire(ctx, key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if b.Fence() <= a.Fence() {
		t.Fatalf("B's fence %d is not above A's %d", b.Fence(), a.Fence())
	}
	if !res.write(b) {
		t.Fatal("B's write was refused")
	}

	// A wakes up and carries on as if it held the lock.
	if err := a.Renew(ctx, time.Minute); !errors.Is(err, safelock.ErrLeaseLost) {
		t.Fatalf("A.Renew: %v, want ErrLeaseLost", err)
	}
	if res.write(a) {
		t.Fatal("A's late write was accepted after B wrote")
	}
	if err := a.Release(ctx); !errors.Is(err, safelock.ErrLeaseLost) {
		t.Fatalf("A.Release: %v, want ErrLeaseLost", err)
	}
	if got := c.Get(ctx, key).Val(); got != b.Token() {
		t.Fatalf("lock key holds %q after A's calls, want B's token", got)
	}
	if b.Err() != nil {
		t.Fatalf("B's lease ended: %v", b.Err())
	}
	if got := res.owner(); got != b.Token() {
		t.Fatalf("resource written by %q, want B", got)
	}
	if !res.write(b) {
		t.Fatal("B's second write (same fence) was refused")
	}
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
	res.check()
}

// TestReliabilityServerRestart kills redis-server during a hold and starts
// it again. Every call during the outage returns within its ctx with an
// error; the holder's Done closes by its safe deadline. After the restart,
// a server that kept its data (appendonly, fsync always) continues the
// fence sequence; one that lost it (the counter restarts from nothing)
// still issues a fence above every fence before, from its clock, and the
// resource accepts it.
func TestReliabilityServerRestart(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		durable bool
	}{
		{"no persistence", nil, false},
		{"appendonly fsync always", []string{"--appendonly", "yes", "--appendfsync", "always"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			res := newResource(t)
			srv := redistest.Start(t, tc.args...)
			c := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true, ReadTimeout: readTimeout})
			t.Cleanup(func() { _ = c.Close() })
			locker := closing(t, safelock.New(c))
			ctx := shortCtx(t)
			const key = "restart"

			// Earlier grants move the counter, so a lost counter shows
			// as lower fences after the restart.
			for range 2 {
				l, err := locker.TryAcquire(ctx, key, time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				if !res.write(l) {
					t.Fatal("write refused")
				}
				if err := l.Release(ctx); err != nil {
					t.Fatal(err)
				}
			}
			const ttl = 1500 * time.Millisecond
			a, err := locker.TryAcquire(ctx, key, ttl)
			if err != nil {
				t.Fatal(err)
			}
			if !res.write(a) {
				t.Fatal("A's write refused")
			}

			srv.Kill()
			err = bounded(t, 500*time.Millisecond, "Renew with the server down", func(ctx context.Context) error {
				return a.Renew(ctx, ttl)
			})
			if err == nil || errors.Is(err, safelock.ErrLeaseLost) {
				t.Fatalf("Renew with the server down: %v; want a connection error, the lease not (yet) lost", err)
			}
			t.Logf("Renew, server down: %v", err)
			err = bounded(t, 500*time.Millisecond, "TryAcquire with the server down", func(ctx context.Context) error {
				l, err := locker.TryAcquire(ctx, key, ttl)
				if l != nil {
					t.Error("TryAcquire with the server down returned a lease")
				}
				return err
			})
			if err == nil || errors.Is(err, safelock.ErrNotAcquired) {
				t.Fatalf("TryAcquire with the server down: %v; want a connection error", err)
			}
			t.Logf("TryAcquire, server down: %v", err)
			err = bounded(t, 500*time.Millisecond, "Acquire with the server down", func(ctx context.Context) error {
				_, err := locker.Acquire(ctx, key, ttl)
				return err
			})
			if err == nil {
				t.Fatal("Acquire with the server down succeeded")
			}
			t.Logf("Acquire, server down: %v", err)

			// No renew can succeed, so the lease ends at its safe deadline.
			waitClosed(t, a.Done(), ttl+10*time.Second, "A.Done with the server down")
			if !errors.Is(a.Err(), safelock.ErrLeaseLost) {
				t.Fatalf("A.Err() = %v, want ErrLeaseLost", a.Err())
			}

			srv.Restart()
			if !tc.durable {
				if n, err := c.Exists(ctx, "safelock:fence:{"+key+"}").Result(); err != nil || n != 0 {
					t.Fatalf("fence counter after a restart without persistence: exists=%d, %v; the test expects it lost", n, err)
				}
			}
			var b *safelock.Lease
			err = bounded(t, 20*time.Second, "Acquire after the restart", func(ctx context.Context) error {
				var err error
				b, err = locker.Acquire(ctx, key, time.Minute)
				return err
			})
			if err != nil {
				t.Fatalf("Acquire after the restart: %v", err)
			}
			t.Logf("fences: A %d, B after restart %d", a.Fence(), b.Fence())
			if tc.durable {
				if b.Fence() <= a.Fence() {
					t.Fatalf("durable server: B's fence %d not above A's %d", b.Fence(), a.Fence())
				}
				if !res.write(b) {
					t.Fatal("durable server: B's write refused")
				}
			} else {
				// The counter was lost with the data (checked below
				// Restart): the fence comes from the server's clock,
				// above every fence before.
				if b.Fence() <= a.Fence() {
					t.Fatalf("server without persistence: the first fence after the restart, %d, is not above A's %d", b.Fence(), a.Fence())
				}
				if !res.write(b) {
					t.Fatal("B's write after the restart refused")
				}
				if res.write(a) {
					t.Fatal("A's late write accepted after B's")
				}
			}
			// A's stale Release must not touch B's lock.
			if err := a.Release(ctx); !errors.Is(err, safelock.ErrLeaseLost) {
				t.Fatalf("A.Release after the restart: %v, want ErrLeaseLost", err)
			}
			if got := c.Get(ctx, key).Val(); got != b.Token() {
				t.Fatalf("lock key holds %q, want B's token", got)
			}
			if err := b.Release(ctx); err != nil {
				t.Fatal(err)
			}
			res.check()
		})
	}
}

// proxied is a redis-server reached through a fault proxy, and a direct
// client for watching the server and for competing holders.
type proxied struct {
	srv    *redistest.Server
	proxy  *faultproxy.Proxy
	client *redis.Client // through the proxy
	direct *redis.Client
}

// The client through the proxy sets ContextTimeoutEnabled: go-redis passes
// ctx deadlines to the socket only then. With the default client, a Renew
// with a 300 ms ctx on a stalled link took 5 s (the default read timeout)
// and a TryAcquire 10 s; TestReliabilityDoneWhileRenewStuck covers that
// client.
func startProxied(t *testing.T) *proxied {
	t.Helper()
	srv := redistest.Start(t)
	p, err := faultproxy.New(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	c := redis.NewClient(&redis.Options{Addr: p.Addr(), ContextTimeoutEnabled: true, ReadTimeout: readTimeout, WriteTimeout: readTimeout})
	t.Cleanup(func() { _ = c.Close() })
	return &proxied{srv: srv, proxy: p, client: c, direct: srv.Client()}
}

// closing closes l when the test ends.
func closing(t *testing.T, l *safelock.Locker) *safelock.Locker {
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// warm makes one acquire and release through l, so that scripts are
// loaded and native-command detection (DELEX, SET IFEQ) is done before a
// fault is injected.
func warm(t *testing.T, l *safelock.Locker) {
	t.Helper()
	ctx := shortCtx(t)
	lease, err := l.TryAcquire(ctx, "warm-up", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := lease.Renew(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := lease.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

// waitHeld waits until the proxy holds n chunks back.
func waitHeld(t *testing.T, p *faultproxy.Proxy, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for p.Held() < n {
		if time.Now().After(deadline) {
			t.Fatalf("proxy holds %d chunks, want %d", p.Held(), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestReliabilityStalledAcquire: with the link stalled, TryAcquire and
// Acquire return at their ctx deadline with an error wrapping it. With
// only the replies stalled, the acquire runs on the server and nobody
// learns its token; the lock stays unusable until its ttl, and the next
// holder's fence is higher.
func TestReliabilityStalledAcquire(t *testing.T) {
	checkLeaks(t)
	px := startProxied(t)
	res := newResource(t)
	l := closing(t, safelock.New(px.client))
	other := closing(t, safelock.New(px.direct))
	warm(t, l)
	const key, ttl, orphanTTL = "stalled-acquire", 500 * time.Millisecond, 3 * time.Second

	px.proxy.Stall()
	for name, call := range map[string]func(context.Context) (*safelock.Lease, error){
		"TryAcquire": func(ctx context.Context) (*safelock.Lease, error) { return l.TryAcquire(ctx, key, ttl) },
		"Acquire":    func(ctx context.Context) (*safelock.Lease, error) { return l.Acquire(ctx, key, ttl) },
	} {
		err := bounded(t, 300*time.Millisecond, name+" on a stalled link", func(ctx context.Context) error {
			lease, err := call(ctx)
			if lease != nil {
				t.Errorf("%s on a stalled link returned a lease", name)
			}
			return err
		})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s on a stalled link: %v; want an error wrapping context.DeadlineExceeded", name, err)
		}
	}
	px.proxy.Cut() // the held requests never reach the server
	px.proxy.Resume()
	if n := px.direct.Exists(shortCtx(t), key).Val(); n != 0 {
		t.Fatal("an acquire held by the stall and cut reached the server")
	}
	// A healthy pooled connection, so the next request goes out at once.
	if err := px.client.Ping(shortCtx(t)).Err(); err != nil {
		t.Fatal(err)
	}

	// Replies stalled: the script runs, the caller gives up. (Acquire's
	// first attempt runs the acquire script on the pooled connection.
	// TryAcquire sends a pipeline, which go-redis runs on a pool of its
	// own: its first connection's handshake reply is stalled too, so
	// the pipeline never reaches the server and leaves no orphan.)
	px.proxy.StallReplies()
	err := bounded(t, 300*time.Millisecond, "Acquire with replies stalled", func(ctx context.Context) error {
		_, err := l.Acquire(ctx, key, orphanTTL)
		return err
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire with replies stalled: %v; want DeadlineExceeded", err)
	}
	waitFor(t, "the acquire whose reply was stalled to run on the server", func() bool {
		return px.direct.Exists(shortCtx(t), key).Val() == 1
	})
	px.proxy.Cut()
	px.proxy.Resume()
	// warm-up used another key, so the counter exists only because the
	// orphan grant took a fence.
	orphanFence, err := px.direct.Get(shortCtx(t), "safelock:fence:{"+key+"}").Int64()
	if err != nil || orphanFence == 0 {
		t.Fatalf("fence counter after the orphan grant: %d, %v; want the orphan's fence", orphanFence, err)
	}

	// Nobody holds a lease for the orphan token; the key blocks others
	// until its ttl, then the next holder gets a higher fence.
	if _, err := other.TryAcquire(shortCtx(t), key, time.Minute); !errors.Is(err, safelock.ErrNotAcquired) {
		t.Fatalf("TryAcquire while the orphan grant lives: %v, want ErrNotAcquired", err)
	}
	b, err := other.Acquire(shortCtx(t), key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if b.Fence() <= orphanFence {
		t.Fatalf("next holder's fence = %d, not above the orphan grant's %d", b.Fence(), orphanFence)
	}
	if !res.write(b) {
		t.Fatal("B's write refused")
	}
	if err := b.Release(shortCtx(t)); err != nil {
		t.Fatal(err)
	}
	res.check()
}

// TestReliabilityStalledRenew: a renew that cannot reach the server returns
// at its ctx deadline without declaring the lease lost; Done then closes by
// the safe deadline, before another client can take the lock, and the
// stale holder's writes are refused once the new holder wrote.
func TestReliabilityStalledRenew(t *testing.T) {
	checkLeaks(t)
	px := startProxied(t)
	res := newResource(t)
	l := closing(t, safelock.New(px.client))
	other := closing(t, safelock.New(px.direct))
	warm(t, l)
	const key, ttl = "stalled-renew", time.Second

	a, err := l.TryAcquire(shortCtx(t), key, ttl)
	if err != nil {
		t.Fatal(err)
	}
	if !res.write(a) {
		t.Fatal("A's write refused")
	}
	px.proxy.Stall()
	err = bounded(t, 300*time.Millisecond, "Renew on a stalled link", func(ctx context.Context) error {
		return a.Renew(ctx, ttl)
	})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, safelock.ErrLeaseLost) {
		t.Fatalf("Renew on a stalled link: %v; want DeadlineExceeded, not ErrLeaseLost", err)
	}

	// B waits for the key; when it gets in, A's Done must already be
	// closed.
	b, err := other.Acquire(shortCtx(t), key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-a.Done():
	default:
		t.Fatal("B acquired while A's Done was still open")
	}
	if !errors.Is(a.Err(), safelock.ErrLeaseLost) {
		t.Fatalf("A.Err() = %v, want ErrLeaseLost", a.Err())
	}
	if !res.write(b) {
		t.Fatal("B's write refused")
	}
	if res.write(a) {
		t.Fatal("A's late write accepted after B's")
	}
	// The renew held by the stall lands when the link comes back; it is
	// owner-checked, so it cannot touch B's lock (it would cut B's one
	// minute ttl to A's one second).
	before := evalCalls(t, px.direct)
	px.proxy.Resume()
	waitFor(t, "the late renew to run on the server", func() bool { return evalCalls(t, px.direct) > before })
	if got := px.direct.Get(shortCtx(t), key).Val(); got != b.Token() {
		t.Fatalf("lock holds %q after the late renew, want B's token", got)
	}
	if pttl := px.direct.PTTL(shortCtx(t), key).Val(); pttl < 30*time.Second {
		t.Fatalf("the late renew changed B's ttl to %v", pttl)
	}
	if err := b.Release(shortCtx(t)); err != nil {
		t.Fatal(err)
	}
	res.check()
}

// TestReliabilityStalledRelease: a release that cannot reach the server
// returns at its ctx deadline; the lease is over for its holder at once
// (Done closed), the key stays until its ttl, and the release, delivered
// late after another client took the lock, leaves that lock alone.
func TestReliabilityStalledRelease(t *testing.T) {
	checkLeaks(t)
	px := startProxied(t)
	l := closing(t, safelock.New(px.client))
	other := closing(t, safelock.New(px.direct))
	warm(t, l)
	const key, ttl = "stalled-release", 500 * time.Millisecond

	a, err := l.TryAcquire(shortCtx(t), key, ttl)
	if err != nil {
		t.Fatal(err)
	}
	px.proxy.Stall()
	err = bounded(t, 300*time.Millisecond, "Release on a stalled link", func(ctx context.Context) error {
		return a.Release(ctx)
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Release on a stalled link: %v; want DeadlineExceeded", err)
	}
	waitClosed(t, a.Done(), time.Second, "A.Done after Release")
	waitHeld(t, px.proxy, 1) // the release request, held

	b, err := other.Acquire(shortCtx(t), key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	before := evalCalls(t, px.direct)
	px.proxy.Resume()
	waitFor(t, "the late release to run on the server", func() bool { return evalCalls(t, px.direct) > before })
	if got := px.direct.Get(shortCtx(t), key).Val(); got != b.Token() {
		t.Fatalf("lock holds %q after A's late release, want B's token", got)
	}
	if err := b.Release(shortCtx(t)); err != nil {
		t.Fatal(err)
	}
}

var evalCallsRE = regexp.MustCompile(`cmdstat_eval(?:sha)?:calls=(\d+)`)

// evalCalls counts EVAL and EVALSHA calls the server has run.
func evalCalls(t *testing.T, c *redis.Client) int {
	t.Helper()
	info, err := c.Info(shortCtx(t), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range evalCallsRE.FindAllStringSubmatch(info, -1) {
		v, _ := strconv.Atoi(m[1])
		n += v
	}
	return n
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestReliabilityCutInFlight cuts every connection while a call's request
// or reply is held by the proxy. go-redis retries on a new connection; each
// call must still return within its ctx, and its answer must match the
// server: a lease that reports success is held, one that reports failure
// is not left half-held.
func TestReliabilityCutInFlight(t *testing.T) {
	checkLeaks(t)
	px := startProxied(t)
	l := closing(t, safelock.New(px.client))
	warm(t, l)
	ctx := shortCtx(t)
	const ttl = 20 * time.Second

	// cutDuring runs call while the proxy holds its request (stallAll)
	// or only its reply, then cuts and resumes.
	cutDuring := func(what string, stallAll bool, call func(ctx context.Context) error) error {
		t.Helper()
		if stallAll {
			px.proxy.Stall()
		} else {
			px.proxy.StallReplies()
		}
		const limit = 10 * time.Second
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		errc := make(chan error, 1)
		go func() { errc <- call(ctx) }()
		waitHeld(t, px.proxy, 1)
		px.proxy.Cut()
		px.proxy.Resume()
		var err error
		select {
		case err = <-errc:
		case <-time.After(limit + hang):
			t.Fatalf("%s hung after a cut", what)
		}
		t.Logf("%s, cut with the %s held: %v", what, map[bool]string{true: "request", false: "reply"}[stallAll], err)
		return err
	}

	for _, stallAll := range []bool{true, false} {
		key := fmt.Sprint("cut-", stallAll)
		var a *safelock.Lease
		err := cutDuring("TryAcquire", stallAll, func(ctx context.Context) error {
			var err error
			a, err = l.TryAcquire(ctx, key, ttl)
			return err
		})
		holder := px.direct.Get(ctx, key).Val()
		switch {
		case err == nil && holder != a.Token():
			t.Fatalf("TryAcquire succeeded but the key holds %q", holder)
		case err != nil && a != nil:
			t.Fatalf("TryAcquire failed (%v) but returned a lease", err)
		case err != nil:
			t.Fatalf("TryAcquire with a cut in flight: %v (go-redis retries after a cut; the acquire script accepts its own token again)", err)
		}

		err = cutDuring("Renew", stallAll, func(ctx context.Context) error { return a.Renew(ctx, ttl) })
		if err != nil {
			t.Fatalf("Renew with a cut in flight: %v", err)
		}
		if a.Err() != nil {
			t.Fatalf("lease ended after a renew that reported success: %v", a.Err())
		}

		err = cutDuring("Release", stallAll, func(ctx context.Context) error { return a.Release(ctx) })
		if n := px.direct.Exists(ctx, key).Val(); n != 0 {
			t.Fatalf("Release with a cut in flight (%v) left the key", err)
		}
		// With the reply held, the first attempt deleted the key and
		// go-redis sent the release again: the retry finds the token
		// recorded as released and reports success, not ErrLeaseLost.
		if err != nil {
			t.Fatalf("Release with a cut in flight: %v", err)
		}
	}
}

// TestReliabilityAutoRenewStalled: a watchdog whose renewals cannot get
// through closes Done by the safe deadline, and nothing leaks once the
// lease and the Locker are closed.
func TestReliabilityAutoRenewStalled(t *testing.T) {
	checkLeaks(t)
	px := startProxied(t)
	l := closing(t, safelock.New(px.client, safelock.WithAutoRenew()))
	warm(t, l)
	const key, ttl = "auto-renew-stalled", 600 * time.Millisecond

	a, err := l.TryAcquire(shortCtx(t), key, ttl)
	if err != nil {
		t.Fatal(err)
	}
	px.proxy.Stall()
	waitClosed(t, a.Done(), ttl+10*time.Second, "Done with the watchdog stalled")
	if !errors.Is(a.Err(), safelock.ErrLeaseLost) {
		t.Fatalf("Err() = %v, want ErrLeaseLost", a.Err())
	}
	px.proxy.Cut()
	px.proxy.Resume()
	err = bounded(t, 2*time.Second, "Release after the lease was lost", func(ctx context.Context) error { return a.Release(ctx) })
	if err != nil && !errors.Is(err, safelock.ErrLeaseLost) {
		t.Fatalf("Release after loss: %v", err)
	}
}

// TestReliabilityDoneWhileRenewStuck uses a go-redis client with default
// context handling (ContextTimeoutEnabled false): a Renew on a stalled link
// is stuck until the client's read timeout, well past its ctx. The lease
// must not wait for it: Done closes at the safe deadline, while the renew
// is still stuck.
func TestReliabilityDoneWhileRenewStuck(t *testing.T) {
	checkLeaks(t)
	srv := redistest.Start(t)
	p, err := faultproxy.New(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	const stuck = 6 * time.Second
	c := redis.NewClient(&redis.Options{Addr: p.Addr(), ReadTimeout: stuck, WriteTimeout: stuck})
	t.Cleanup(func() { _ = c.Close() })
	l := closing(t, safelock.New(c))
	warm(t, l)
	const ttl = 500 * time.Millisecond

	a, err := l.TryAcquire(shortCtx(t), "stuck-renew", ttl)
	if err != nil {
		t.Fatal(err)
	}
	deadline := a.Deadline()
	p.Stall()
	start := time.Now()
	renewed := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		renewed <- a.Renew(ctx, ttl)
	}()
	waitHeld(t, p, 1)
	waitClosed(t, a.Done(), stuck+hang, "Done with a renew stuck in the client")
	if late := time.Since(deadline); late > overrun {
		t.Fatalf("Done closed %v after the safe deadline: it waited for the stuck renew", late.Round(time.Millisecond))
	}
	if !errors.Is(a.Err(), safelock.ErrLeaseLost) {
		t.Fatalf("Err() = %v, want ErrLeaseLost", a.Err())
	}
	select {
	case err := <-renewed:
		t.Logf("Renew(ctx 100ms) returned after %v: %v", time.Since(start).Round(time.Millisecond), err)
	case <-time.After(stuck + hang):
		t.Fatal("Renew never returned")
	}
	p.Cut()
	p.Resume()
	if err := a.Release(shortCtx(t)); err != nil && !errors.Is(err, safelock.ErrLeaseLost) {
		t.Fatalf("Release after loss: %v", err)
	}
}

// TestReliabilityRedlockRestartedEmpty: two of three Redlock nodes restart
// without their data while A holds the lock, so B gets a majority too — the
// known Redlock hazard that delayed restarts avoid. The restarted nodes lost
// their counters, but fences come from the servers' clocks then, so B's
// fence is above A's: the resource takes B's writes and refuses A's.
func TestReliabilityRedlockRestartedEmpty(t *testing.T) {
	checkLeaks(t)
	res := newResource(t)
	servers := redistest.StartN(t, 3)
	clients := make([]redis.UniversalClient, len(servers))
	for i, s := range servers {
		clients[i] = s.Client()
	}
	l := closing(t, safelock.NewRedlock(clients, safelock.WithNodeTimeout(250*time.Millisecond)))
	ctx := shortCtx(t)
	const key = "redlock-restart"

	a, err := l.TryAcquire(ctx, key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !res.write(a) {
		t.Fatal("A's write refused")
	}
	for _, s := range servers[1:] {
		s.Kill()
		s.Restart()
	}
	b, err := l.TryAcquire(ctx, key, time.Minute)
	if errors.Is(err, safelock.ErrNotAcquired) {
		t.Log("B was refused: the lock itself held after the restarts")
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("double grant at the lock: A fence %d (lease err %v), B fence %d", a.Fence(), a.Err(), b.Fence())
	if b.Fence() <= a.Fence() {
		t.Fatalf("B's fence %d after the restarts is not above A's %d", b.Fence(), a.Fence())
	}
	bOK := res.write(b)
	aOK := res.write(a)
	switch {
	case bOK && aOK:
		t.Fatalf("both holders wrote after the double grant (A fence %d, B fence %d)", a.Fence(), b.Fence())
	case b.Fence() > a.Fence() && !bOK:
		t.Fatalf("B's higher fence %d was refused", b.Fence())
	case b.Fence() <= a.Fence() && bOK:
		t.Fatalf("B's fence %d, not above A's %d, was accepted", b.Fence(), a.Fence())
	}
	res.check()
	_ = b.Release(ctx)
	_ = a.Release(ctx)
}

// TestReliabilityWaiterLosesWakeUp: a waiting Acquire whose connections
// (commands and pub/sub) are cut and stalled while the holder releases
// misses the release notice; once the link is back it must still get the
// lock by retrying, not wait for a notice that will never come.
func TestReliabilityWaiterLosesWakeUp(t *testing.T) {
	checkLeaks(t)
	px := startProxied(t)
	res := newResource(t)
	waiter := closing(t, safelock.New(px.client))
	holder := closing(t, safelock.New(px.direct))
	warm(t, waiter)
	const key = "lost-wake-up"

	h, err := holder.TryAcquire(shortCtx(t), key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !res.write(h) {
		t.Fatal("holder's write refused")
	}
	type result struct {
		l   *safelock.Lease
		err error
	}
	got := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		l, err := waiter.Acquire(ctx, key, time.Minute)
		got <- result{l, err}
	}()
	// The waiter is subscribed to the key's release channel.
	waitListening(t, px.direct, key)
	px.proxy.Stall()
	px.proxy.Cut() // reconnects are stalled too
	if err := h.Release(shortCtx(t)); err != nil {
		t.Fatal(err)
	}
	px.proxy.Resume()

	select {
	case r := <-got:
		if r.err != nil {
			t.Fatalf("waiter after a lost wake-up: %v", r.err)
		}
		if r.l.Fence() <= h.Fence() {
			t.Fatalf("waiter's fence %d not above the holder's %d", r.l.Fence(), h.Fence())
		}
		if !res.write(r.l) {
			t.Fatal("waiter's write refused")
		}
		if err := r.l.Release(shortCtx(t)); err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the waiter never got the lock after its wake-up was lost")
	}
	res.check()
}

// waitListening waits until a waiter on key is queued with its Locker's
// channel, so that a release hands it the lock by a message.
func waitListening(t *testing.T, c *redis.Client, key string) {
	t.Helper()
	waitFor(t, "the waiter to listen", func() bool {
		for _, place := range c.HVals(shortCtx(t), "safelock:queue-places:{"+key+"}").Val() {
			if strings.Contains(place, " =safelock:waiter:") {
				return true
			}
		}
		return false
	})
}

// TestReliabilityResubscribeWakes: a waiter whose pub/sub connection was
// cut while the holder released learns nothing from the release; once
// go-redis has subscribed again, the waiter looks again at once instead
// of after its pause (here up to the holder's minute-long ttl: backoff of
// an hour).
func TestReliabilityResubscribeWakes(t *testing.T) {
	checkLeaks(t)
	px := startProxied(t)
	waiter := closing(t, safelock.New(px.client, safelock.WithBackoff(time.Hour, time.Hour)))
	holder := closing(t, safelock.New(px.direct))
	warm(t, waiter)
	const key = "resubscribe"
	h, err := holder.TryAcquire(shortCtx(t), key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		l, err := waiter.Acquire(ctx, key, time.Minute)
		if err == nil {
			err = l.Release(shortCtx(t))
		}
		got <- err
	}()
	waitListening(t, px.direct, key)
	px.proxy.Stall()
	px.proxy.Cut()
	if err := h.Release(shortCtx(t)); err != nil {
		t.Fatal(err)
	}
	px.proxy.Resume()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("waiter after its subscription came back: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the waiter did not look again when its subscription came back")
	}
}

// TestReliabilityReleaseWhileRenewStuck: with a go-redis client that does
// not pass ctx deadlines to the socket (ContextTimeoutEnabled false), a
// watchdog renew whose reply is stalled is stuck until the read timeout.
// Release must not wait for it past its own ctx.
func TestReliabilityReleaseWhileRenewStuck(t *testing.T) {
	checkLeaks(t)
	srv := redistest.Start(t)
	p, err := faultproxy.New(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	const stuck = 8 * time.Second // > 300ms + overrun: a Release that waits for the renew fails
	c := redis.NewClient(&redis.Options{Addr: p.Addr(), ReadTimeout: stuck, WriteTimeout: stuck})
	t.Cleanup(func() { _ = c.Close() })
	l := closing(t, safelock.New(c, safelock.WithAutoRenew()))
	warm(t, l)
	const ttl = 3 * time.Second // the watchdog renews after about a second

	a, err := l.TryAcquire(shortCtx(t), "release-renew-stuck", ttl)
	if err != nil {
		t.Fatal(err)
	}
	p.StallReplies()
	waitHeld(t, p, 1) // the watchdog's renew ran; its reply is held
	err = bounded(t, 300*time.Millisecond, "Release with the watchdog's renew stuck", func(ctx context.Context) error {
		return a.Release(ctx)
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Release with the watchdog's renew stuck: %v; want DeadlineExceeded", err)
	}
	t.Logf("Release: %v", err)
	waitClosed(t, a.Done(), time.Second, "Done after Release")
	p.Cut()
	p.Resume()
}
