package safelock

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/internal/redistest"
	"github.com/redis/go-redis/v9"
)

var cmdstatRE = regexp.MustCompile(`(?m)^cmdstat_([a-z|_-]+):calls=(\d+)`)

// serverCommands returns the commands the server has run since the last
// CONFIG RESETSTAT, by name, leaving out the INFO and CONFIG calls that
// measure them.
func serverCommands(t testing.TB, c *redis.Client) map[string]int {
	t.Helper()
	info, err := c.Info(testCtx(t), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, m := range cmdstatRE.FindAllStringSubmatch(info, -1) {
		name := m[1]
		if name == "info" || strings.HasPrefix(name, "config") {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		out[name] = n
	}
	return out
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestUncontendedCommands counts what the server runs for an uncontended
// TryAcquire and Release: at most 6 commands per cycle (the two EVALSHA,
// SET NX and the fence's INCR, GET and DEL), no TIME and no PUBLISH when
// nobody waits. Counted on a real redis-server from INFO commandstats.
func TestUncontendedCommands(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	cycle := func() {
		lease, err := l.TryAcquire(ctx, "uncontended", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := lease.Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
	cycle() // loads the scripts and starts the fence counter
	if err := c.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	const cycles = 50
	for range cycles {
		cycle()
	}
	got := serverCommands(t, c)
	if per := float64(total(got)) / cycles; per > 6 {
		t.Errorf("%.1f commands per cycle, want at most 6: %v", per, got)
	}
	for _, name := range []string{"time", "publish"} {
		if got[name] != 0 {
			t.Errorf("%s ran %d times in %d uncontended cycles, want 0: %v", name, got[name], cycles, got)
		}
	}
	if got["evalsha"] != 2*cycles {
		t.Errorf("evalsha ran %d times, want %d (one per acquire and release): %v", got["evalsha"], 2*cycles, got)
	}
}

// TestReleasePublishesOnlyToWaiters: a waiter marks itself, and a release
// then publishes (TestUncontendedCommands shows it does not without one).
func TestReleasePublishesOnlyToWaiters(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	a, err := l.TryAcquire(ctx, "waited", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		b, err := l.Acquire(ctx, "waited", time.Minute)
		if err == nil {
			err = b.Release(ctx)
		}
		got <- err
	}()
	// The waiter's mark is there once it has tried.
	deadline := time.Now().Add(20 * time.Second)
	ks, _ := lockKeys("waited")
	for c.Exists(ctx, ks.waiting).Val() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the waiter never marked itself")
		}
		time.Sleep(time.Millisecond)
	}
	if err := c.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if n := serverCommands(t, c)["publish"]; n < 1 {
		t.Errorf("no PUBLISH for a release with a waiter")
	}
}

// TestWakeOneAcrossLockers: waiters in separate Lockers (separate
// processes) are woken one per release, the longest waiting first: each
// sends at most three attempts (its first, one right after subscribing,
// and the one that wins), however many others wait.
func TestWakeOneAcrossLockers(t *testing.T) {
	srv := redistest.Start(t)
	ctx := testCtx(t)
	h, err := New(srv.Client()).TryAcquire(ctx, "many", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	a := &attempts{n: map[int]int{}}
	order := make(chan int, n)
	errc := make(chan error, n)
	for i := 0; i < n; i++ {
		c := srv.Client()
		c.AddHook(a)
		l := New(c, WithBackoff(time.Hour, time.Hour))
		t.Cleanup(func() { _ = l.Close() })
		go func() {
			wctx := context.WithValue(ctx, waiterID{}, i)
			lease, err := l.Acquire(wctx, "many", time.Minute)
			if err == nil {
				order <- i
				err = lease.Release(ctx)
			}
			errc <- err
		}()
		waitWaiters(t, l, "safelock:released:many", 1)
		// Registered in Redis too (arrival order is the server's).
		ks, _ := lockKeys("many")
		for srv.Client().ZCard(ctx, ks.waiters).Val() < int64(i+1) {
			time.Sleep(time.Millisecond)
		}
	}
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		if got := <-order; got != i {
			t.Errorf("grant %d went to waiter %d, want the longest waiting", i, got)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := 0; i < n; i++ {
		if a.n[i] > 3 {
			t.Errorf("waiter %d sent %d acquire attempts, want at most 3", i, a.n[i])
		}
	}
}

// fairAttempts counts fair acquire attempts per waiter (waiterID in ctx).
type fairAttempts struct {
	mu sync.Mutex
	n  map[int]int
}

func (a *fairAttempts) DialHook(next redis.DialHook) redis.DialHook { return next }

func (a *fairAttempts) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if args := cmd.Args(); len(args) > 1 && (args[1] == fairAcquire.Hash() || args[1] == fairAcquireScript) {
			if id, ok := ctx.Value(waiterID{}).(int); ok {
				a.mu.Lock()
				a.n[id]++
				a.mu.Unlock()
			}
		}
		return next(ctx, cmd)
	}
}

func (a *fairAttempts) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestFairHeadWaitsForRelease: a fair waiter told it became the head while
// the lock is still held ("token pttl") does not try and fail; it tries
// once the holder releases. Each of several waiters in separate Lockers,
// served in order, sends at most three attempts (its first, one right
// after subscribing, and the one that wins).
func TestFairHeadWaitsForRelease(t *testing.T) {
	srv := redistest.Start(t)
	ctx := testCtx(t)
	h, err := New(srv.Client(), WithFairness()).TryAcquire(ctx, "fairq", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	a := &fairAttempts{n: map[int]int{}}
	order := make(chan int, n)
	errc := make(chan error, n)
	hold := make(chan struct{})
	ks, _ := lockKeys("fairq")
	for i := 0; i < n; i++ {
		c := srv.Client()
		c.AddHook(a)
		l := New(c, WithFairness(), WithBackoff(time.Hour, time.Hour))
		t.Cleanup(func() { _ = l.Close() })
		go func() {
			wctx := context.WithValue(ctx, waiterID{}, i)
			lease, err := l.Acquire(wctx, "fairq", time.Minute)
			if err == nil {
				order <- i
				<-hold // hold long enough for the next head to be told while held
				err = lease.Release(ctx)
			}
			errc <- err
		}()
		for srv.Client().ZCard(ctx, ks.queue).Val() < int64(i+1) {
			time.Sleep(time.Millisecond)
		}
	}
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if got := <-order; got != i {
			t.Errorf("grant %d went to waiter %d, want the longest waiting", i, got)
		}
		time.Sleep(20 * time.Millisecond) // the next head hears it is first while this one holds
		hold <- struct{}{}
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := 0; i < n; i++ {
		if a.n[i] > 3 {
			t.Errorf("waiter %d sent %d fair acquire attempts, want at most 3", i, a.n[i])
		}
	}
}

func TestHeldNotice(t *testing.T) {
	for msg, want := range map[string]time.Duration{"tok 1500": 1500 * time.Millisecond, "tok": 0, "": 0, "tok x": 0, "tok -5": 0} {
		got, ok := heldNotice(msg)
		if got != want || ok != (want > 0) {
			t.Errorf("heldNotice(%q) = %v %v, want %v", msg, got, ok, want)
		}
	}
}
