package safelock

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
		// The inspection itself, and a connection's setup (go-redis may
		// dial one more connection at any time).
		if name == "info" || strings.HasPrefix(name, "config") || name == "hello" || strings.HasPrefix(name, "client") {
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
// TryAcquire and Release: 5 commands per cycle (SET NX and the fence's
// INCR in a pipeline; the release's EVALSHA, GET and DEL), no TIME and no
// PUBLISH when nobody waits. Counted on a real redis-server from INFO
// commandstats.
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
	if per := float64(total(got)) / cycles; per > 5 {
		t.Errorf("%.1f commands per cycle, want at most 5: %v", per, got)
	}
	for _, name := range []string{"time", "publish"} {
		if got[name] != 0 {
			t.Errorf("%s ran %d times in %d uncontended cycles, want 0: %v", name, got[name], cycles, got)
		}
	}
	for name, want := range map[string]int{"evalsha": cycles, "set": cycles, "incr": cycles, "get": cycles} {
		if got[name] != want {
			t.Errorf("%s ran %d times, want %d (a pipeline per acquire, a script per release): %v", name, got[name], want, got)
		}
	}
}

// TestKeyNamesReused: a Locker that takes the same key again reuses the
// names it derived for it (the fence, queue and waiter keys, the queue
// scripts' KEYS), so a cycle on a repeated key allocates less than one
// after another key; and a cycle after another key uses its own key's
// names.
func TestKeyNamesReused(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	cycle := func(key string) {
		lease, err := l.TryAcquire(ctx, key, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if lease.Key() != key {
			t.Fatalf("lease of %q has key %q", key, lease.Key())
		}
		if err := lease.Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
	cycle("same")
	same := testing.AllocsPerRun(50, func() { cycle("same") })
	// Two keys in turn: each cycle names its key anew (both fence
	// counters are started, so that costs nothing else).
	keys, i := []string{"x", "y"}, 0
	cycle("x")
	cycle("y")
	alternating := testing.AllocsPerRun(50, func() { cycle(keys[i%2]); i++ })
	t.Logf("objects allocated per cycle: %v on a repeated key, %v on two keys in turn", same, alternating)
	if same >= alternating {
		t.Errorf("a cycle on a repeated key allocates %v objects, on two keys in turn %v: want fewer", same, alternating)
	}
	// Alternating keys: each cycle's fence counter is its own key's.
	for _, key := range []string{"a", "b", "a", "b"} {
		lease, err := l.TryAcquire(ctx, key, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		counter, err := c.Get(ctx, fenceKeyPrefix+"{"+key+"}").Int64()
		if err != nil || counter != lease.Fence() {
			t.Errorf("%q: fence %d, its counter %d (%v)", key, lease.Fence(), counter, err)
		}
		if err := lease.Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFastAcquireFence: TryAcquire's pipeline (SET NX, INCR) issues
// fences as the acquire script does. A counter lost with the server's
// data, and one that refused TryAcquire calls bumped from nothing since
// (INCR runs whether the SET took the key or not), both restart from the
// server's clock, above every fence issued before; a refused call leaves
// the holder's key alone; a call that finds its own token (go-redis
// sent it again after a lost reply) holds the lock.
func TestFastAcquireFence(t *testing.T) {
	if !strings.Contains(nextFenceLua, strconv.Itoa(minFence)) {
		t.Fatalf("nextFenceLua does not compare with minFence (%d)", minFence)
	}
	l, c := startLocker(t)
	ctx := testCtx(t)
	ks, _ := lockKeys("fast")
	last := int64(0)
	take := func() *Lease {
		t.Helper()
		a, err := l.TryAcquire(ctx, "fast", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if a.Fence() <= last || a.Fence() < minFence {
			t.Fatalf("fence %d after %d, want above it and above %d", a.Fence(), last, int64(minFence))
		}
		last = a.Fence()
		return a
	}
	if err := take().Release(ctx); err != nil { // the counter's first use
		t.Fatal(err)
	}
	a := take()
	if _, err := l.TryAcquire(ctx, "fast", time.Minute); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("second TryAcquire: %v, want ErrNotAcquired", err)
	}
	if v, _ := c.Get(ctx, "fast").Result(); v != a.token {
		t.Fatalf("key holds %q after a refused call, want the holder's token", v)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	for _, lost := range []func() error{
		func() error { return c.Del(ctx, ks.fence).Err() },
		func() error { return c.Set(ctx, ks.fence, 3, 0).Err() },
	} {
		if err := lost(); err != nil {
			t.Fatal(err)
		}
		if err := take().Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
	tok := NewToken()
	if err := c.Set(ctx, "fast", tok, time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if g, err := l.nodes[0].acquireFast(ctx, ks, tok, time.Minute); err != nil || !g.ok || g.fence <= last {
		t.Fatalf("retried call with its own token: %+v %v, want granted above %d", g, err, last)
	}
}

// TestReleasePublishesOnlyToWaiters: a waiter marks itself, and a release
// then hands it the lock (TestUncontendedCommands shows that a release
// without one does nothing more). A waiter in another Locker (another
// process) is told by PUBLISH; one in the releasing Locker is told by the
// releasing process itself, with no PUBLISH. Either way the waiter asks
// nothing more: the server runs two scripts after the release starts,
// the release and the waiter's own release.
func TestReleasePublishesOnlyToWaiters(t *testing.T) {
	for _, tc := range []struct {
		name      string
		sameLock  bool
		publishes int
	}{
		{"other Locker", false, 1},
		{"same Locker", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, c := startLocker(t)
			waiter := l
			if !tc.sameLock {
				waiter = New(c)
				t.Cleanup(func() { _ = waiter.Close() })
			}
			ctx := testCtx(t)
			a, err := l.TryAcquire(ctx, "waited", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			got := make(chan error, 1)
			go func() {
				b, err := waiter.Acquire(ctx, "waited", time.Minute)
				if err == nil {
					err = b.Release(ctx)
				}
				got <- err
			}()
			// The waiter has marked the key and is queued with the channel
			// it listens on (a waiter that only polls is handed the lock
			// without a message).
			ks, _ := lockKeys("waited")
			waitListening(t, c, ks, 1)
			if c.Exists(ctx, ks.waiting).Val() == 0 {
				t.Fatal("a queued waiter left no mark")
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
			cmds := serverCommands(t, c)
			if n := cmds["publish"]; n != tc.publishes {
				t.Errorf("%d PUBLISH for a release with a waiter, want %d", n, tc.publishes)
			}
			if n := cmds["evalsha"]; n != 2 {
				t.Errorf("%d scripts run after the release started, want 2 (the release, the waiter's release)", n)
			}
		})
	}
}

// TestHandoffAcrossLockers: without fairness too, waiters in separate
// Lockers (separate processes) queue, and each release hands the lock to
// the longest waiting: each sends at most two attempts (its first, and
// one right after subscribing that says where it listens), however many
// others wait; none is sent between a release and the next grant.
func TestHandoffAcrossLockers(t *testing.T) {
	srv := redistest.Start(t)
	ctx := testCtx(t)
	h, err := New(srv.Client()).TryAcquire(ctx, "many", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	a := &attempts{n: map[int]int{}}
	ks, _ := lockKeys("many")
	grantsFollowArrival(t, ctx, ctx, "many", n, func(int) *Locker {
		c := srv.Client()
		c.AddHook(a)
		l := New(c, WithBackoff(time.Hour, time.Hour))
		t.Cleanup(func() { _ = l.Close() })
		return l
	}, func(i int) {
		// Queued in Redis, and listening (arrival order is the server's).
		waitQueued(t, srv.Client(), ks.queue, i+1)
		waitListening(t, srv.Client(), ks, i+1)
	}, func() error { return h.Release(ctx) })
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := 0; i < n; i++ {
		if a.n[i] > 2 {
			t.Errorf("waiter %d sent %d acquire attempts, want at most 2", i, a.n[i])
		}
	}
}

// fairAttempts counts the commands each waiter (waiterID in ctx) sends.
type fairAttempts struct {
	mu sync.Mutex
	n  map[int]int
}

func (a *fairAttempts) DialHook(next redis.DialHook) redis.DialHook { return next }

func (a *fairAttempts) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		// Connection setup (HELLO, CLIENT SETINFO) is not the lock's.
		if id, ok := ctx.Value(waiterID{}).(int); ok && cmd.Name() != "hello" && cmd.Name() != "client" {
			a.mu.Lock()
			a.n[id]++
			a.mu.Unlock()
		}
		return next(ctx, cmd)
	}
}

func (a *fairAttempts) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestFairHandoff: a fair release hands the lock to the head of the
// queue, with the head's own ttl and a new fence, and tells it so; the
// head sends no command between the release and its grant. Each of
// several waiters in separate Lockers, served in order, sends two
// commands in all: its first attempt, and one right after subscribing
// that tells the queue where it listens. A waiter that moves up while the
// lock is held is not told (it would only look again at the holder's
// expiry) and waits for the handoff instead of trying.
func TestFairHandoff(t *testing.T) {
	srv := redistest.Start(t)
	ctx := testCtx(t)
	h, err := New(srv.Client(), WithFairness()).TryAcquire(ctx, "fairq", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	a := &fairAttempts{n: map[int]int{}}
	type granted struct {
		i     int
		lease *Lease
	}
	order := make(chan granted, n)
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
			lease, err := l.Acquire(wctx, "fairq", time.Duration(i+1)*time.Minute)
			if err == nil {
				order <- granted{i, lease}
				<-hold // hold a while, as the next waiters move up
				err = lease.Release(ctx)
			}
			errc <- err
		}()
		waitListening(t, srv.Client(), ks, i+1)
	}
	a.mu.Lock()
	sent := maps.Clone(a.n)
	a.mu.Unlock()
	if err := srv.Client().ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	fence := h.Fence()
	for i := 0; i < n; i++ {
		g := <-order
		if g.i != i {
			t.Errorf("grant %d went to waiter %d, want the longest waiting", i, g.i)
		}
		ttl := time.Duration(g.i+1) * time.Minute
		if pttl := srv.Client().PTTL(ctx, "fairq").Val(); pttl <= ttl-time.Minute/2 || pttl > ttl {
			t.Errorf("waiter %d holds the key for %v, want its own ttl %v", g.i, pttl, ttl)
		}
		if left := time.Until(g.lease.Deadline()); left <= ttl-time.Minute/2 || left > ttl {
			t.Errorf("waiter %d's lease is safe for %v, want about its ttl %v", g.i, left, ttl)
		}
		if g.lease.Fence() <= fence {
			t.Errorf("grant %d fence %d, not above the previous %d", i, g.lease.Fence(), fence)
		}
		fence = g.lease.Fence()
		time.Sleep(20 * time.Millisecond) // a hold during which the next waiter is first
		hold <- struct{}{}
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	// One message per handoff, to the new holder alone (the last release
	// finds nobody waiting and publishes nothing).
	if got := serverCommands(t, srv.Client())["publish"]; got != n {
		t.Errorf("%d handoffs published %d messages, want %d", n, got, n)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := 0; i < n; i++ {
		if a.n[i] != sent[i] {
			t.Errorf("waiter %d sent %d commands between the release and its grant, want none", i, a.n[i]-sent[i])
		}
		if a.n[i] > 2 {
			t.Errorf("waiter %d sent %d commands, want at most 2", i, a.n[i])
		}
	}
}

// TestFairExpiryWatchers: while the holder keeps renewing a short ttl,
// only the first few queued waiters look again at each moment its key
// would have expired; the others ask only to keep their place. Were every
// waiter to watch the expiry, a queue of n waiters on a ttl t would ask
// n/t times a second.
func TestFairExpiryWatchers(t *testing.T) {
	srv := redistest.Start(t)
	ctx := testCtx(t)
	const ttl = 200 * time.Millisecond // renewed every 50ms: a stall of 150ms is survived
	h, err := New(srv.Client(), WithFairness()).TryAcquire(ctx, "watched", ttl)
	if err != nil {
		t.Fatal(err)
	}
	renewing, stop := make(chan error, 1), make(chan struct{})
	go func() {
		tick := time.NewTicker(ttl / 4)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				renewing <- nil
				return
			case <-tick.C:
				if err := h.Renew(ctx, ttl); err != nil {
					renewing <- err
					return
				}
			}
		}
	}()
	const n = 8
	a := &fairAttempts{n: map[int]int{}}
	errc := make(chan error, n)
	ks, _ := lockKeys("watched")
	for i := range n {
		c := srv.Client()
		c.AddHook(a)
		l := New(c, WithFairness()) // keep-place pause 0.5-0.67s
		t.Cleanup(func() { _ = l.Close() })
		go func() {
			lease, err := l.Acquire(context.WithValue(ctx, waiterID{}, i), "watched", time.Minute)
			if err == nil {
				err = lease.Release(ctx)
			}
			errc <- err
		}()
		waitListening(t, srv.Client(), ks, i+1)
	}
	a.mu.Lock()
	before := maps.Clone(a.n)
	a.mu.Unlock()
	const watch = 1200 * time.Millisecond
	time.Sleep(watch)
	a.mu.Lock()
	asked := make([]int, n)
	for i := range n {
		asked[i] = a.n[i] - before[i]
	}
	a.mu.Unlock()
	close(stop)
	if err := <-renewing; err != nil {
		t.Fatal(err)
	}
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	// The head looks at about every expiry (6 in the window); a waiter
	// further back at most three times (every 0.5s or more), to keep its
	// place.
	if asked[0] < 3 {
		t.Errorf("the head asked %d times in %v with the holder's key %v from expiry, want it to watch the expiry", asked[0], watch, ttl)
	}
	for i := expiryWatchers; i < n; i++ {
		if asked[i] > 3 {
			t.Errorf("waiter %d (%d ahead of it) asked %d times in %v, want at most 3 (keep-place asks only)", i, i, asked[i], watch)
		}
	}
	t.Logf("asks per waiter in %v: %v", watch, asked)
}

func TestParseNotice(t *testing.T) {
	for msg, want := range map[string]notice{
		"tok=42":     {fence: 42},
		"tok=42,300": {fence: 42, px: 300 * time.Millisecond},
		"tok":        {},
		"":           {},
		"tok~1500":   {}, // the head notice of earlier versions: not a handoff
		"tok=x":      {},
		"tok=-5":     {},
		"tok=0":      {},
		"tok=42,":    {},
		"tok=42,x":   {},
		"tok=42,-3":  {},
	} {
		if got := parseNotice(msg); got != want {
			t.Errorf("parseNotice(%q) = %+v, want %+v", msg, got, want)
		}
	}
}

// TestReleaseRightAfterAttempt: a release that runs right after a
// waiter's first attempt, before Acquire could go on, still wakes it (a
// fair one: hands it the lock). The waiter registers with its Locker's
// subscription before it sends the attempt; registered after, it
// missed the message and slept its whole pause (here an hour).
func TestReleaseRightAfterAttempt(t *testing.T) {
	for _, fair := range []bool{false, true} {
		t.Run(fmt.Sprint("fair=", fair), func(t *testing.T) {
			srv := redistest.Start(t)
			ctx := testCtx(t)
			opts := []Option{WithBackoff(time.Hour, time.Hour)}
			if fair {
				opts = append(opts, WithFairness())
			}
			holders := New(srv.Client(), opts...)
			t.Cleanup(func() { _ = holders.Close() })
			c := srv.Client()
			hook := &releaseAfterAttempt{}
			c.AddHook(hook)
			l := New(c, opts...)
			t.Cleanup(func() { _ = l.Close() })
			l.opts.waiterTTL = time.Hour // a fair waiter keeps its place for 15 minutes
			// A first wait subscribes the Locker.
			h, err := holders.TryAcquire(ctx, "race", time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(50*time.Millisecond, func() { _ = h.Release(ctx) })
			lease, err := l.Acquire(ctx, "race", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if err := lease.Release(ctx); err != nil {
				t.Fatal(err)
			}
			// Now the release comes as the first attempt's reply arrives.
			h, err = holders.TryAcquire(ctx, "race", time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			hook.arm(func() {
				if err := h.Release(context.WithoutCancel(ctx)); err != nil {
					t.Error(err)
				}
			})
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			lease, err = l.Acquire(wctx, "race", time.Minute)
			if err != nil {
				t.Fatalf("waiter released right after its first attempt: %v", err)
			}
			if hook.fired.Load() != 1 {
				t.Fatal("the release did not run after the attempt")
			}
			_ = lease.Release(ctx)
		})
	}
}

// releaseAfterAttempt runs a function once, after the next acquire
// script's reply and before the caller sees it.
type releaseAfterAttempt struct {
	mu    sync.Mutex
	then  func()
	fired atomic.Int32
}

func (r *releaseAfterAttempt) arm(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.then = f
}

func (r *releaseAfterAttempt) DialHook(next redis.DialHook) redis.DialHook { return next }

func (r *releaseAfterAttempt) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		args := cmd.Args()
		if len(args) > 1 && (args[1] == acquireScript.Hash() || args[1] == queueAcquire.Hash()) {
			r.mu.Lock()
			f := r.then
			r.then = nil
			r.mu.Unlock()
			if f != nil {
				f()
				// Let the notifier take the release's message before the
				// caller goes on: the race, made certain.
				time.Sleep(100 * time.Millisecond)
				r.fired.Add(1)
			}
		}
		return err
	}
}

func (r *releaseAfterAttempt) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestHandOverTellsLocalWaiter: a release that hands the lock to a waiter
// of its own Locker tells it at once (handOver); the pub/sub message that
// follows, finding the waiter gone with its lease, is not taken for a
// stray handoff, while a later handoff to the same token (another fence:
// a failover restored its place) still is.
func TestHandOverTellsLocalWaiter(t *testing.T) {
	passed := make(chan string, 4)
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer func() { _ = c.Close() }()
	n := newNotifier([]redis.UniversalClient{c}, time.Minute, func(_ *keySet, token string) { passed <- token })
	ks, _ := lockKeys("k")
	ch := &channel{waiters: map[*waiter]struct{}{}, confirmed: make(chan struct{}), since: time.Now()}
	n.channels[n.own()] = ch
	w := &waiter{name: n.own(), token: "tok", wake: make(chan string, 1), ks: ks, since: ch.since}
	ch.waiters[w] = struct{}{}

	n.handOver("other=7") // a waiter elsewhere: left to the message
	n.handOver("tok=5")
	select {
	case got := <-w.wake:
		if got != "tok=5" {
			t.Fatalf("waiter told %q, want tok=5", got)
		}
	default:
		t.Fatal("handOver did not tell the waiter")
	}
	n.unsubscribe(w, true) // it took the lease and left
	n.mu.Lock()
	ch.deliver("tok=5", n.strayHandoff) // the release's own message
	n.mu.Unlock()
	select {
	case tok := <-passed:
		t.Fatalf("the message of a handoff told locally was passed on (%s)", tok)
	case <-time.After(50 * time.Millisecond):
	}
	n.mu.Lock()
	ch.deliver("tok=9", n.strayHandoff) // a later handoff to the gone token
	n.mu.Unlock()
	select {
	case tok := <-passed:
		if tok != "tok" {
			t.Fatalf("passed on %q, want tok", tok)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a stray handoff with a new fence was not passed on")
	}
}
