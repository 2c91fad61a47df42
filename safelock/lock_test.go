package safelock

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/locklint/locklint/internal/redistest"
	"github.com/redis/go-redis/v9"
)

func TestTryAcquireReleaseRenew(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	before := c.Time(ctx).Val().UnixMicro()
	a, err := l.TryAcquire(ctx, "job", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	after := c.Time(ctx).Val().UnixMicro()
	if got := c.Get(ctx, "job").Val(); got != a.Token() || a.Key() != "job" {
		t.Fatalf("key holds %q, lease token %q key %q", got, a.Token(), a.Key())
	}
	// The first fence of a key is the server's time in microseconds, and
	// the counter holds it.
	ks, _ := lockKeys("job")
	if counter, _ := c.Get(ctx, ks.fence).Int64(); a.Fence() < before || a.Fence() > after || counter != a.Fence() {
		t.Fatalf("first fence %d, want the server time in µs within [%d, %d], stored in the counter (%d)", a.Fence(), before, after, counter)
	}
	if _, err := l.TryAcquire(ctx, "job", time.Minute); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("second TryAcquire: %v, want ErrNotAcquired", err)
	}
	if err := a.Renew(ctx, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if d := c.PTTL(ctx, "job").Val(); d <= time.Minute {
		t.Fatalf("PTTL after renew %v, want > 1m", d)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-a.Done():
	default:
		t.Fatal("Done not closed after Release")
	}
	if !errors.Is(a.Err(), ErrReleased) {
		t.Fatalf("Err after release: %v", a.Err())
	}
	if err := a.Release(ctx); err != nil {
		t.Fatalf("second Release: %v", err)
	}
	if err := a.Renew(ctx, time.Minute); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("Renew after Release: %v, want ErrLeaseLost", err)
	}
	if n := c.Exists(ctx, "job").Val(); n != 0 {
		t.Fatal("key still exists after release")
	}
	b, err := l.TryAcquire(ctx, "job", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = b.Release(ctx) }()
	if b.Fence() <= a.Fence() || b.Token() == a.Token() {
		t.Fatalf("second lease fence %d token %q; first %d %q", b.Fence(), b.Token(), a.Fence(), a.Token())
	}
}

// TestRoundTrips counts what goes over the wire: TryAcquire (with its
// fence) is one round trip, SET NX and INCR in a pipeline, and one more
// (GET) when the key is held; Renew and Release are one round trip and
// one command each.
func TestRoundTrips(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	w := &wire{}
	c.AddHook(w)

	// The first renew and release load their scripts (NOSCRIPT, then EVAL).
	warm, err := l.TryAcquire(ctx, "k", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := warm.Renew(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := warm.Release(ctx); err != nil {
		t.Fatal(err)
	}
	w.take()

	check := func(what string, trips int, want ...string) {
		t.Helper()
		n, cmds := w.take()
		if n != trips || !slices.Equal(cmds, want) {
			t.Errorf("%s: %d round trips, commands %v; want %d, %v", what, n, cmds, trips, want)
		}
	}
	for i := 0; i < 3; i++ {
		lease, err := l.TryAcquire(ctx, "k", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		check("TryAcquire", 1, "set", "incr")
		if err := lease.Renew(ctx, time.Minute); err != nil {
			t.Fatal(err)
		}
		check("Renew", 1, "evalsha")
		if err := lease.Release(ctx); err != nil {
			t.Fatal(err)
		}
		check("Release", 1, "evalsha")
	}
	if _, err := l.TryAcquire(ctx, "k", time.Minute); err != nil {
		t.Fatal(err)
	}
	w.take()
	if _, err := l.TryAcquire(ctx, "k", time.Minute); !errors.Is(err, ErrNotAcquired) {
		t.Fatal(err)
	}
	check("TryAcquire (held)", 2, "set", "incr", "get")

	// The fair lock's tries and releases are one round trip too.
	fair := New(c, WithFairness())
	defer func() { _ = fair.Close() }()
	for i := 0; i < 2; i++ {
		lease, err := fair.TryAcquire(ctx, "f", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := lease.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if n, cmds := w.take(); i == 1 && (n != 2 || !slices.Equal(cmds, []string{"evalsha", "evalsha"})) {
			t.Errorf("fair TryAcquire+Release: %d round trips %v, want 2 EVALSHA", n, cmds)
		}
	}
}

// TestNoScript: after SCRIPT FLUSH the next call falls back to EVAL (which
// loads the script again), and the one after is back to one EVALSHA. (A
// fair TryAcquire runs the acquire script; a plain one runs no script once
// the first has told the server's version.)
func TestNoScript(t *testing.T) {
	l, c := startLocker(t, WithFairness())
	ctx := testCtx(t)
	w := &wire{}
	c.AddHook(w)
	a, err := l.TryAcquire(ctx, "k", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	w.take()
	if _, err := l.TryAcquire(ctx, "k", time.Minute); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("TryAcquire after SCRIPT FLUSH: %v", err)
	}
	if n, cmds := w.take(); n != 2 || !slices.Equal(cmds, []string{"evalsha", "eval"}) {
		t.Errorf("after flush: %d round trips %v, want evalsha (NOSCRIPT) then eval", n, cmds)
	}
	if _, err := l.TryAcquire(ctx, "k", time.Minute); !errors.Is(err, ErrNotAcquired) {
		t.Fatal(err)
	}
	if n, cmds := w.take(); n != 1 || !slices.Equal(cmds, []string{"evalsha"}) {
		t.Errorf("next call: %d round trips %v, want one evalsha", n, cmds)
	}
	if err := c.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatalf("Release after SCRIPT FLUSH: %v", err)
	}
}

// TestNativeCommands runs on miniredis, which does not have SET IFEQ:
// renew falls back to Lua once and stays there; release runs its script
// (it may hand the lock to a waiter, which no native command does).
func TestNativeCommands(t *testing.T) {
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer func() { _ = c.Close() }()
	w := &wire{}
	c.AddHook(w)
	l := New(c)
	defer func() { _ = l.Close() }()
	ctx := testCtx(t)

	for i := 0; i < 2; i++ {
		a, err := l.TryAcquire(ctx, "k", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		w.take()
		if err := a.Renew(ctx, time.Minute); err != nil {
			t.Fatal(err)
		}
		n, cmds := w.take()
		if i == 0 && (n != 3 || !slices.Equal(cmds, []string{"set", "evalsha", "eval"})) {
			t.Errorf("first renew: %d round trips %v, want SET IFEQ, then the Lua fallback (not loaded yet)", n, cmds)
		}
		if i == 1 && (n != 1 || cmds[0] != "evalsha") {
			t.Errorf("second renew: %d round trips %v, want one evalsha", n, cmds)
		}
		if err := a.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if n, cmds := w.take(); i == 1 && (n != 1 || cmds[0] != "evalsha") {
			t.Errorf("release: %d round trips %v, want one evalsha", n, cmds)
		}
		if m.Exists("k") {
			t.Fatal("key exists after release")
		}
	}
}

// TestLuaPathOnRedis7: the acquire reply carries the server version, so
// on Redis 7 release and renew go straight to Lua, never trying DELEX or
// SET IFEQ.
func TestLuaPathOnRedis7(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	w := &wire{}
	c.AddHook(w)
	a, err := l.TryAcquire(ctx, "k", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	w.take()
	if err := a.Renew(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, cmds := w.take(); !slices.Equal(cmds, []string{"evalsha", "eval", "evalsha", "eval"}) {
		t.Errorf("first renew and release sent %v, want only Lua (NOSCRIPT then EVAL for each)", cmds)
	}
}

// TestStaleHolder: A's lease expires, B acquires; A's Release and Renew
// report ErrLeaseLost and leave B's lock alone; fences increase.
func TestStaleHolder(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	a, err := l.TryAcquire(ctx, "stale", 80*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	waitGone(t, c, "stale")
	<-a.Done() // by its safe deadline, which is before the key expired
	if !errors.Is(a.Err(), ErrLeaseLost) {
		t.Fatalf("A.Err() = %v, want ErrLeaseLost", a.Err())
	}
	b, err := l.TryAcquire(ctx, "stale", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Renew(ctx, time.Minute); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("A.Renew: %v, want ErrLeaseLost", err)
	}
	if err := a.Release(ctx); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("A.Release: %v, want ErrLeaseLost", err)
	}
	if got := c.Get(ctx, "stale").Val(); got != b.Token() {
		t.Fatalf("key holds %q after A's calls, want B's token", got)
	}
	if b.Fence() <= a.Fence() {
		t.Fatalf("B fence %d <= A fence %d", b.Fence(), a.Fence())
	}
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestStaleRenewBeforeDeadline: the key vanished (as after a failover) but
// A's deadline has not passed; Renew finds out and closes Done.
func TestRenewFindsKeyGone(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	a, err := l.TryAcquire(ctx, "gone", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, "gone", "other", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if err := a.Renew(ctx, time.Minute); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("Renew: %v, want ErrLeaseLost", err)
	}
	select {
	case <-a.Done():
	default:
		t.Fatal("Done open after a failed renew")
	}
	if got := c.Get(ctx, "gone").Val(); got != "other" {
		t.Fatalf("other owner's value changed to %q", got)
	}
}

// TestDoneBeforeOthersGetIn: a holder that stops renewing sees Done closed
// no later than the moment another client first gets the lock.
func TestDoneBeforeOthersGetIn(t *testing.T) {
	l, _ := startLocker(t)
	ctx := testCtx(t)
	for round := 0; round < 3; round++ {
		key := fmt.Sprintf("pause-%d", round)
		a, err := l.TryAcquire(ctx, key, 150*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Until(a.Deadline()); d > 150*time.Millisecond-drift(150*time.Millisecond) {
			t.Fatalf("deadline %v ahead, beyond ttl - drift", d)
		}
		for {
			b, err := l.TryAcquire(ctx, key, time.Minute)
			if errors.Is(err, ErrNotAcquired) {
				time.Sleep(time.Millisecond)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-a.Done():
			default:
				t.Fatalf("round %d: B got the lock while A's Done was still open", round)
			}
			_ = b.Release(ctx)
			break
		}
	}
}

func TestContextEnds(t *testing.T) {
	l, _ := startLocker(t)
	ctx := testCtx(t)
	h, err := l.TryAcquire(ctx, "busy", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.Release(ctx) }()

	dctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = l.Acquire(dctx, "busy", time.Minute)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire past deadline: %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("Acquire returned %v after its deadline", d)
	}

	cctx, cancel2 := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := l.Acquire(cctx, "busy", time.Minute)
		errc <- err
	}()
	cancel2()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Acquire: %v, want Canceled", err)
	}

	done, cancel3 := context.WithCancel(ctx)
	cancel3()
	if _, err := l.TryAcquire(done, "other", time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("TryAcquire with cancelled ctx: %v", err)
	}
	if err := h.Renew(done, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("Renew with cancelled ctx: %v", err)
	}
	if h.Err() != nil {
		t.Fatal("a cancelled Renew ended the lease")
	}
}

func TestBadInput(t *testing.T) {
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer func() { _ = c.Close() }()
	ctx := testCtx(t)
	var typedNil *redis.Client
	cases := map[string]func() error{
		"empty key":  func() error { _, err := New(c).TryAcquire(ctx, "", time.Second); return err },
		"zero ttl":   func() error { _, err := New(c).TryAcquire(ctx, "k", 0); return err },
		"ttl < 1ms":  func() error { _, err := New(c).Acquire(ctx, "k", 500*time.Microsecond); return err },
		"negative":   func() error { _, err := New(c).TryAcquire(ctx, "k", -time.Second); return err },
		"nil client": func() error { _, err := New(nil).TryAcquire(ctx, "k", time.Second); return err },
		"typed nil":  func() error { _, err := New(typedNil).Acquire(ctx, "k", time.Second); return err },
		"nil Do":     func() error { return New(c).Do(ctx, "k", time.Second, nil) },
		"Do nil client": func() error {
			return New(nil).Do(ctx, "k", time.Second, func(context.Context, *Lease) error { return nil })
		},
		"no nodes": func() error { _, err := NewRedlock(nil).TryAcquire(ctx, "k", time.Second); return err },
		"nil node": func() error {
			_, err := NewRedlock([]redis.UniversalClient{c, nil}).TryAcquire(ctx, "k", time.Second)
			return err
		},
		"fair redlock": func() error {
			_, err := NewRedlock([]redis.UniversalClient{c, c, c}, WithFairness()).TryAcquire(ctx, "k", time.Second)
			return err
		},
		"replica ack 0": func() error {
			_, err := New(c, WithReplicaAck(0, time.Second)).TryAcquire(ctx, "k", time.Second)
			return err
		},
		"bad backoff": func() error {
			_, err := New(c, WithBackoff(time.Second, time.Millisecond)).Acquire(ctx, "k", time.Second)
			return err
		},
		"node timeout":   func() error { _, err := New(c, WithNodeTimeout(0)).TryAcquire(ctx, "k", time.Second); return err },
		"brace key":      func() error { _, err := New(c).TryAcquire(ctx, "a}b", time.Second); return err },
		"ReleaseKey nil": func() error { _, err := ReleaseKey(ctx, nil, "k", "t"); return err },
		"ReleaseKey typed nil": func() error {
			_, err := ReleaseKey(ctx, typedNil, "k", "t")
			return err
		},
		"ReleaseKey no token": func() error { _, err := ReleaseKey(ctx, c, "k", ""); return err },
		"RenewKey no key":     func() error { _, err := RenewKey(ctx, c, "", "t", time.Second); return err },
		"RenewKey ttl":        func() error { _, err := RenewKey(ctx, c, "k", "t", 0); return err },
	}
	for name, fn := range cases {
		t.Run(name, func(t *testing.T) {
			err := fn()
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
			t.Log(err)
		})
	}
	var nilLocker *Locker
	if _, err := nilLocker.TryAcquire(ctx, "k", time.Second); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil Locker: %v", err)
	}
	if len(m.Keys()) != 0 {
		t.Fatalf("bad input wrote keys %v", m.Keys())
	}
	lease, err := New(c).TryAcquire(ctx, "renew-ttl", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := lease.Renew(ctx, 0); !errors.Is(err, ErrInvalid) || lease.Err() != nil {
		t.Fatalf("Renew(0): %v (lease err %v), want ErrInvalid and the lease kept", err, lease.Err())
	}
	if err := lease.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestFreeFunctions(t *testing.T) {
	_, c := startLocker(t)
	ctx := testCtx(t)
	tok := NewToken()
	if len(tok) < 22 || tok == NewToken() {
		t.Fatalf("token %q: want >= 128 bits, distinct", tok)
	}
	if err := c.Set(ctx, "k", tok, time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if ok, err := RenewKey(ctx, c, "k", "wrong", time.Hour); ok || err != nil {
		t.Fatalf("RenewKey with wrong token: %v %v", ok, err)
	}
	if ok, err := RenewKey(ctx, c, "k", tok, time.Hour); !ok || err != nil {
		t.Fatalf("RenewKey: %v %v", ok, err)
	}
	if d := c.PTTL(ctx, "k").Val(); d <= time.Minute {
		t.Fatalf("PTTL %v after RenewKey", d)
	}
	if ok, err := ReleaseKey(ctx, c, "k", "wrong"); ok || err != nil {
		t.Fatalf("ReleaseKey with wrong token: %v %v", ok, err)
	}
	if ok, err := ReleaseKey(ctx, c, "k", tok); !ok || err != nil {
		t.Fatalf("ReleaseKey: %v %v", ok, err)
	}
	if c.Exists(ctx, "k").Val() != 0 {
		t.Fatal("key exists after ReleaseKey")
	}
}

// TestAcquireWakesOnRelease: with backoff and holder ttl of an hour, a
// waiter can only get the lock soon through the release notification.
func TestAcquireWakesOnRelease(t *testing.T) {
	for _, fair := range []bool{false, true} {
		t.Run(fmt.Sprintf("fair=%v", fair), func(t *testing.T) {
			opts := []Option{WithBackoff(time.Hour, time.Hour)}
			if fair {
				opts = append(opts, WithFairness())
			}
			l, c := startLocker(t, opts...)
			ctx := testCtx(t)
			h, err := l.TryAcquire(ctx, "wake", time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			got := make(chan error, 1)
			go func() {
				lease, err := l.Acquire(ctx, "wake", time.Minute)
				if err == nil {
					err = lease.Release(ctx)
				}
				got <- err
			}()
			ks, _ := lockKeys("wake")
			waitListening(t, c, ks, 1)
			if err := h.Release(ctx); err != nil {
				t.Fatal(err)
			}
			if err := <-got; err != nil {
				t.Fatalf("waiter: %v", err)
			}
		})
	}
}

// waitListening polls until n fair waiters of ks are queued with the
// channel their Locker listens on, so that a release hands them the lock
// by a message.
func waitListening(t testing.TB, c redis.Cmdable, ks *keySet, n int) {
	t.Helper()
	ctx := testCtx(t)
	for {
		places, err := c.HVals(ctx, ks.places).Result()
		if err != nil {
			t.Fatal(err)
		}
		listening := 0
		for _, p := range places {
			if strings.Contains(p, " ="+ownChannelPrefix) || strings.Contains(p, " ?"+ownChannelPrefix) {
				listening++
			}
		}
		if listening >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d of %d waiters listening", listening, n)
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// waitSubscribed polls until a client subscribes to channel.
func waitSubscribed(t testing.TB, c *redis.Client, channel string) {
	t.Helper()
	ctx := testCtx(t)
	for {
		n, err := c.PubSubNumSub(ctx, channel).Result()
		if err != nil {
			t.Fatal(err)
		}
		if n[channel] > 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("no subscriber")
		case <-time.After(2 * time.Millisecond):
		}
	}
}

func TestAcquireContended(t *testing.T) {
	l, _ := startLocker(t, WithBackoff(time.Millisecond, 20*time.Millisecond))
	ctx := testCtx(t)
	var (
		mu     sync.Mutex
		inside int
		fences []int64
		wg     sync.WaitGroup
	)
	for g := 0; g < 8; g++ {
		wg.Go(func() {
			for i := 0; i < 10; i++ {
				lease, err := l.Acquire(ctx, "shared", time.Second)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				inside++
				if inside != 1 {
					t.Errorf("%d holders at once", inside)
				}
				fences = append(fences, lease.Fence())
				mu.Unlock()
				mu.Lock()
				inside--
				mu.Unlock()
				if err := lease.Release(ctx); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if !slices.IsSorted(fences) || len(slices.Compact(fences)) != 80 {
		t.Fatalf("fences in grant order not strictly increasing: %v", fences)
	}
}

func TestClusterClient(t *testing.T) {
	nodes := redistest.StartCluster(t)
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: redistest.ClusterAddrs(nodes)})
	defer func() { _ = cc.Close() }()
	l := New(cc, WithFairness())
	defer func() { _ = l.Close() }()
	ctx := testCtx(t)
	for _, key := range []string{"a", "job:42", "{user:7}:lock", "x{y"} {
		ks, err := lockKeys(key)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{ks.fence, ks.queue, ks.places, ks.waiting, ks.waiters} {
			want, _ := cc.ClusterKeySlot(ctx, key).Result()
			got, _ := cc.ClusterKeySlot(ctx, k).Result()
			if got != want {
				t.Fatalf("%q slot %d, derived %q slot %d", key, want, k, got)
			}
		}
		var last int64
		for i := 0; i < 3; i++ {
			a, err := l.Acquire(ctx, key, time.Minute)
			if err != nil {
				t.Fatalf("%q: %v", key, err)
			}
			if _, err := l.TryAcquire(ctx, key, time.Minute); !errors.Is(err, ErrNotAcquired) {
				t.Fatalf("%q held: %v", key, err)
			}
			if err := a.Renew(ctx, time.Minute); err != nil {
				t.Fatal(err)
			}
			if a.Fence() <= last {
				t.Fatalf("fence %d after %d", a.Fence(), last)
			}
			last = a.Fence()
			if err := a.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	// WithReplicaAck finds the slot's primary; this cluster has no replicas.
	strict := New(cc, WithReplicaAck(1, 20*time.Millisecond))
	defer func() { _ = strict.Close() }()
	if _, err := strict.TryAcquire(ctx, "acked", time.Minute); !errors.Is(err, ErrReplicaAck) {
		t.Fatalf("replica ack on a cluster without replicas: %v", err)
	}
	if cc.Exists(ctx, "acked").Val() != 0 {
		t.Fatal("lock left behind after ErrReplicaAck")
	}

	// A waiter on a cluster is woken through pub/sub too; a fair one is
	// handed the lock on its Locker's channel (PUBLISH counts only one
	// node's listeners there: the handoff is not taken for a crash).
	for _, fair := range []bool{false, true} {
		opts := []Option{WithBackoff(time.Hour, time.Hour)}
		key := "wake"
		if fair {
			opts = append(opts, WithFairness())
			key = "wake-fair"
		}
		hl := New(cc, opts...)
		defer func() { _ = hl.Close() }()
		h, err := hl.TryAcquire(ctx, key, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		wl := New(cc, opts...)
		defer func() { _ = wl.Close() }()
		got := make(chan error, 1)
		go func() {
			lease, err := wl.Acquire(ctx, key, time.Minute)
			if err == nil {
				err = lease.Release(ctx)
			}
			got <- err
		}()
		ks, _ := lockKeys(key)
		waitListening(t, cc, ks, 1)
		if err := h.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-got; err != nil {
			t.Fatal(err)
		}
	}
}

// TestReplicated: a UniversalClient on a primary with a replica, and
// WithReplicaAck passing (1 replica) and failing (2 asked for).
func TestReplicated(t *testing.T) {
	primary, replica := redistest.StartReplicated(t)
	uc := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{primary.Addr()}})
	defer func() { _ = uc.Close() }()
	ctx := testCtx(t)
	w := &wire{}
	uc.AddHook(w)

	l := New(uc, WithReplicaAck(1, 2*time.Second))
	defer func() { _ = l.Close() }()
	a, err := l.TryAcquire(ctx, "r", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if n, cmds := w.take(); n != 2 || !slices.Equal(cmds, []string{"evalsha", "wait", "eval", "wait"}) {
		t.Errorf("first acquire with replica ack: %d round trips %v, want NOSCRIPT then EVAL, each with WAIT", n, cmds)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := l.TryAcquire(ctx, "r", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
	w.take()
	c, err := l.TryAcquire(ctx, "r", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if n, cmds := w.take(); n != 1 || !slices.Equal(cmds, []string{"evalsha", "wait"}) {
		t.Errorf("acquire with replica ack: %d round trips %v, want one pipeline [evalsha wait]", n, cmds)
	}
	// Renew with replica ack: the renew script and WAIT in one round trip
	// (after the first renew, which loads the script), and the replica
	// has the new ttl when Renew returns.
	for i := range 2 {
		if err := c.Renew(ctx, 10*time.Minute); err != nil {
			t.Fatal(err)
		}
		n, cmds := w.take()
		if i == 1 && (n != 1 || !slices.Equal(cmds, []string{"evalsha", "wait"})) {
			t.Errorf("renew with replica ack: %d round trips %v, want one pipeline [evalsha wait]", n, cmds)
		}
	}
	if d := replica.Client().PTTL(ctx, "r").Val(); d <= 5*time.Minute {
		t.Fatalf("replica's ttl after an acknowledged renew: %v, want the renewed 10m", d)
	}
	if err := c.Release(ctx); err != nil {
		t.Fatal(err)
	}

	strict := New(uc, WithReplicaAck(2, 50*time.Millisecond))
	defer func() { _ = strict.Close() }()
	if _, err := strict.TryAcquire(ctx, "r", time.Minute); !errors.Is(err, ErrReplicaAck) {
		t.Fatalf("2 replicas asked, 1 present: %v, want ErrReplicaAck", err)
	} else {
		t.Log(err)
	}
	if n := uc.Exists(ctx, "r").Val(); n != 0 {
		t.Fatal("lock left behind after ErrReplicaAck")
	}

	// The replica goes away during a hold: Renew fails with ErrReplicaAck
	// and the lease keeps its old deadline; it is not lost.
	quick := New(uc, WithReplicaAck(1, 100*time.Millisecond))
	defer func() { _ = quick.Close() }()
	d, err := quick.TryAcquire(ctx, "r", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	deadline := d.Deadline()
	replica.Kill()
	err = d.Renew(ctx, 10*time.Minute)
	if !errors.Is(err, ErrReplicaAck) || errors.Is(err, ErrLeaseLost) {
		t.Fatalf("renew without the replica: %v, want ErrReplicaAck", err)
	}
	t.Log(err)
	if d.Err() != nil || !d.Deadline().Equal(deadline) {
		t.Fatalf("after an unacknowledged renew: Err %v, deadline moved by %v", d.Err(), d.Deadline().Sub(deadline))
	}
	if err := d.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

type waiterID struct{}

// attempts counts acquire scripts sent per waiter (the ctx value waiterID).
type attempts struct {
	mu sync.Mutex
	n  map[int]int
}

func (a *attempts) DialHook(next redis.DialHook) redis.DialHook { return next }
func (a *attempts) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (a *attempts) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if args := cmd.Args(); len(args) > 1 && (args[1] == acquireScript.Hash() || args[1] == AcquireScript ||
			args[1] == queueAcquire.Hash() || args[1] == queueAcquireScript) {
			if id, ok := ctx.Value(waiterID{}).(int); ok {
				a.mu.Lock()
				a.n[id]++
				a.mu.Unlock()
			}
		}
		return next(ctx, cmd)
	}
}

// TestWakeOne: a Redlock release wakes one waiter of a Locker, the
// longest waiting, not all of them; the others do not retry (their
// backoff is an hour), so each waiter sends at most four attempts: its
// first, one right after subscribing, one woken by the release on the
// first node that may find the others not yet released, and one woken by
// the second node's, which wins (two of three nodes are free by then). (On one
// deployment a release hands the lock over instead: TestHandoffAcrossLockers.)
func TestWakeOne(t *testing.T) {
	l, _, cs := startRedlock(t, 3, WithBackoff(time.Hour, time.Hour))
	a := &attempts{n: map[int]int{}}
	for _, c := range cs {
		c.AddHook(a)
	}
	ctx := testCtx(t)
	h, err := l.TryAcquire(ctx, "one", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	const n = 6
	ks, _ := lockKeys("one")
	grantsFollowArrival(t, ctx, ctx, "one", n, func(int) *Locker { return l }, func(i int) {
		waitWaiters(t, l, "safelock:released:one", i+1)
		// Registered in Redis too: a waiter joins the subscription before
		// its first attempt, and arrival order is each server's (each
		// node's release wakes the head of its own queue).
		for _, c := range cs {
			waitQueued(t, c, ks.waiters, i+1)
		}
	}, func() error { return h.Release(ctx) })
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := 0; i < n; i++ {
		// Three nodes: each attempt is three acquire calls.
		if a.n[i] > 4*3 {
			t.Errorf("waiter %d sent %d acquire calls, want at most 4 attempts on 3 nodes", i, a.n[i])
		}
	}
}

// grantsFollowArrival starts n waiters on key, one after another, and
// fails the test unless grant i goes to waiter i. Waiter i acquires with
// locker(i) (its ctx carries waiterID i) and releases with relCtx once
// granted; registered(i) waits until it is queued, before the next one
// starts; release frees the lock they all wait for.
func grantsFollowArrival(t *testing.T, ctx, relCtx context.Context, key string, n int, locker func(i int) *Locker, registered func(i int), release func() error) {
	t.Helper()
	order := make(chan int, n)
	errc := make(chan error, n)
	for i := 0; i < n; i++ {
		l := locker(i)
		go func() {
			lease, err := l.Acquire(context.WithValue(ctx, waiterID{}, i), key, time.Minute)
			if err == nil {
				order <- i
				err = lease.Release(relCtx)
			}
			errc <- err
		}()
		registered(i)
	}
	if err := release(); err != nil {
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
}

// waitWaiters waits until a Locker has n waiters registered on channel.
func waitWaiters(t testing.TB, l *Locker, channel string, n int) {
	t.Helper()
	ctx := testCtx(t)
	for {
		l.notify.mu.Lock()
		got := 0
		if ch := l.notify.channels[channel]; ch != nil {
			got = len(ch.waiters)
		}
		l.notify.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d of %d waiters registered", got, n)
		case <-time.After(time.Millisecond):
		}
	}
}

// TestErrorNamesCause: when ctx ends while go-redis keeps retrying a
// server that refuses connections, go-redis itself returns only ctx.Err();
// safelock's error still wraps ctx.Err() and names the refusal.
func TestErrorNamesCause(t *testing.T) {
	srv := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true})
	defer func() { _ = c.Close() }()
	l := New(c)
	defer func() { _ = l.Close() }()
	l2 := New(c)
	defer func() { _ = l2.Close() }()
	if l2.nodes[0].dials != l.nodes[0].dials {
		t.Fatal("a second Locker on the client added a second dial hook")
	}
	a, err := l.TryAcquire(testCtx(t), "cause", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	calls := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"TryAcquire", func(ctx context.Context) error { _, err := l.TryAcquire(ctx, "other", time.Minute); return err }},
		{"Acquire", func(ctx context.Context) error { _, err := l.Acquire(ctx, "other", time.Minute); return err }},
		{"Renew", func(ctx context.Context) error { return a.Renew(ctx, time.Minute) }},
		{"Release", func(ctx context.Context) error { return a.Release(ctx) }},
	}
	check := func(phase string, n int, mustEnd bool) {
		for _, call := range calls[:n] {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			err := call.fn(ctx)
			ended := ctx.Err()
			cancel()
			switch {
			case err == nil || !strings.Contains(err.Error(), "connection refused"):
				t.Errorf("%s, %s: %v; want the cause (connection refused) named", phase, call.name, err)
			case ended != nil && !errors.Is(err, ended):
				t.Errorf("%s, %s: %v; ctx ended, want an error wrapping %v", phase, call.name, err, ended)
			case mustEnd && ended == nil:
				t.Errorf("%s, %s: returned before its ctx ended (%v); the test expects go-redis to retry until then", phase, call.name, err)
			default:
				t.Logf("%s, %s: %v", phase, call.name, err)
			}
		}
	}
	// Fresh failures: go-redis retries dialling until ctx ends and then
	// returns only ctx.Err().
	check("fresh", 3, true)
	// After many failed calls go-redis stops dialling for callers (its
	// pool's circuit breaker) and fails at once with the dial error.
	for range 30 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		_ = a.Renew(ctx, time.Minute)
		cancel()
	}
	check("breaker open", 4, false)
	// The open breaker left a go-redis goroutine that probes once a second
	// and stops, once the client is closed, at its next probe.
	_ = c.Close()
	waitGoroutineGone(t, "pool.(*ConnPool).tryDial")
}

// waitGoroutineGone waits until no goroutine has fn in its stack.
func waitGoroutineGone(t *testing.T, fn string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if !strings.Contains(string(buf[:n]), fn) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a goroutine in %s is still running", fn)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// slowRelease delays a Lease's release on a node when the release's ctx
// carries slowReleaseKey, so that a waiter woken by the node heard first
// finds the other nodes still held.
type slowRelease struct{ d time.Duration }

type slowReleaseKey struct{}

func (s slowRelease) DialHook(next redis.DialHook) redis.DialHook { return next }
func (s slowRelease) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (s slowRelease) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if args := cmd.Args(); len(args) > 1 && ctx.Value(slowReleaseKey{}) != nil &&
			(args[1] == leaseRelease.Hash() || args[1] == leaseReleaseScript) {
			time.Sleep(s.d)
		}
		return next(ctx, cmd)
	}
}

// TestWakeOneSplitRelease: a Redlock release is not atomic across nodes.
// The waiter it wakes can try while the release has reached only the node
// that woke it; that attempt fails (one node of three), and the waiter
// must neither lose its place (the others must not be served first) nor
// its wake-up (the releases still on their way must wake it). The
// waiters' backoff is an hour: only a release can wake them.
func TestWakeOneSplitRelease(t *testing.T) {
	l, _, cs := startRedlock(t, 3, WithBackoff(time.Hour, time.Hour))
	for _, c := range cs[1:] {
		c.AddHook(slowRelease{d: 200 * time.Millisecond})
	}
	a := &attempts{n: map[int]int{}}
	for _, c := range cs {
		c.AddHook(a)
	}
	ctx := testCtx(t)
	h, err := l.TryAcquire(ctx, "split", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	const n = 3
	ks, _ := lockKeys("split")
	slow := context.WithValue(ctx, slowReleaseKey{}, true)
	grantsFollowArrival(t, ctx, slow, "split", n, func(int) *Locker { return l }, func(i int) {
		waitWaiters(t, l, "safelock:released:split", i+1)
		for _, c := range cs {
			waitQueued(t, c, ks.waiters, i+1)
		}
	}, func() error { return h.Release(slow) })
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := 0; i < n; i++ {
		// Its first attempt, one after subscribing, one that finds a
		// release half done, and the one that wins; the others are
		// not woken by the half-done release.
		if a.n[i] > 4*3 {
			t.Errorf("waiter %d sent %d acquire calls, want at most 4 attempts on 3 nodes", i, a.n[i])
		}
	}
}
