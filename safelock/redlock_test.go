package safelock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/internal/redistest"
	"github.com/redis/go-redis/v9"
)

func startRedlock(t *testing.T, n int, opts ...Option) (*Locker, []*redistest.Server, []*redis.Client) {
	t.Helper()
	servers := redistest.StartN(t, n)
	clients := make([]redis.UniversalClient, n)
	plain := make([]*redis.Client, n)
	for i, s := range servers {
		// A killed node should fail fast (no dial or command retries), so
		// the node timeout can be generous for the live ones.
		c := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1, DialerRetries: 1})
		t.Cleanup(func() { _ = c.Close() })
		plain[i] = c
		clients[i] = c
	}
	l := NewRedlock(clients, append([]Option{WithNodeTimeout(2 * time.Second)}, opts...)...)
	t.Cleanup(func() { _ = l.Close() })
	return l, servers, plain
}

func TestRedlock(t *testing.T) {
	l, servers, cs := startRedlock(t, 3)
	ctx := testCtx(t)
	a, err := l.TryAcquire(ctx, "rl", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		if got := c.Get(ctx, "rl").Val(); got != a.Token() {
			t.Fatalf("node %d holds %q", i, got)
		}
	}
	if _, err := l.TryAcquire(ctx, "rl", time.Minute); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("second TryAcquire: %v", err)
	}
	if err := a.Renew(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}

	// One node down: a majority still grants, and fences keep rising.
	servers[2].Kill()
	b, err := l.TryAcquire(ctx, "rl", time.Minute)
	if err != nil {
		t.Fatalf("with 2 of 3 nodes: %v", err)
	}
	if b.Fence() <= a.Fence() {
		t.Fatalf("fence %d after %d", b.Fence(), a.Fence())
	}
	if err := b.Renew(ctx, time.Minute); err != nil {
		t.Fatalf("renew with 2 of 3 nodes: %v", err)
	}
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}

	// Two nodes down: no quorum, a clear error that is not ErrNotAcquired.
	servers[1].Kill()
	_, err = l.TryAcquire(ctx, "rl", time.Minute)
	if err == nil || errors.Is(err, ErrNotAcquired) {
		t.Fatalf("with 1 of 3 nodes: %v, want a quorum error", err)
	}
	t.Log(err)
	if cs[0].Exists(ctx, "rl").Val() != 0 {
		t.Fatal("failed attempt left its key on the live node")
	}
}

// TestRedlockMinorityReleased: when only a minority grants, the attempt
// deletes its key there and leaves the other owner's keys alone.
func TestRedlockMinorityReleased(t *testing.T) {
	l, _, cs := startRedlock(t, 3)
	ctx := testCtx(t)
	for _, c := range cs[1:] {
		if err := c.Set(ctx, "m", "other", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.TryAcquire(ctx, "m", time.Minute); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("1 of 3 granted: %v, want ErrNotAcquired", err)
	}
	if cs[0].Exists(ctx, "m").Val() != 0 {
		t.Fatal("minority grant not released")
	}
	for i, c := range cs[1:] {
		if got := c.Get(ctx, "m").Val(); got != "other" {
			t.Fatalf("node %d: other owner's lock changed to %q", i+1, got)
		}
	}
}

// TestRedlockFence: per-node counters that disagree still give a fence
// above every fence issued before, because each lease lifts the counters
// of its granting majority to its own fence. The counters are set above
// the servers' clocks (in µs), so that the fences come from them.
func TestRedlockFence(t *testing.T) {
	l, _, cs := startRedlock(t, 3)
	ctx := testCtx(t)
	ks, _ := lockKeys("f")
	const base = 1 << 52 // µs since 1970: the year 2112
	for i, v := range []int64{base + 10, base + 5, base + 5} {
		if err := cs[i].Set(ctx, ks.fence, v, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	// Node 2 is held by someone else: nodes 0 and 1 grant, fence base+11.
	if err := cs[2].Set(ctx, "f", "other", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	a, err := l.TryAcquire(ctx, "f", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if a.Fence() != base+11 {
		t.Fatalf("fence base%+d, want base+11 (max of base+11, base+6)", a.Fence()-base)
	}
	if got, _ := cs[1].Get(ctx, ks.fence).Int64(); got != base+11 {
		t.Fatalf("node 1 counter base%+d, want lifted to base+11", got-base)
	}
	// A holder that never releases: its keys expire. The next majority
	// (nodes 1 and 2) must issue a higher fence than base+11.
	for _, c := range cs {
		if err := c.Del(ctx, "f").Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := cs[0].Set(ctx, "f", "other", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	b, err := l.TryAcquire(ctx, "f", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if b.Fence() <= a.Fence() {
		t.Fatalf("fence %d after %d", b.Fence(), a.Fence())
	}
	_ = b.Release(ctx)
}

// TestRedlockAcquireWakes: a Redlock waiter is woken by the release too
// (it listens on the first node).
func TestRedlockAcquireWakes(t *testing.T) {
	l, _, cs := startRedlock(t, 3, WithBackoff(time.Hour, time.Hour))
	ctx := testCtx(t)
	h, err := l.TryAcquire(ctx, "w", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		lease, err := l.Acquire(ctx, "w", time.Minute)
		if err == nil {
			if lease.Fence() <= h.Fence() {
				err = errors.New("fence did not increase")
			}
			err = errors.Join(err, lease.Release(ctx))
		}
		got <- err
	}()
	waitSubscribed(t, cs[0], "safelock:released:w")
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// TestRedlockIdleChannels: a Redlock Locker listens on every node, one
// channel per key waited for, and unsubscribes idle channels beyond
// maxIdleChannels; a node that is down must not hold that up (each
// UNSUBSCRIBE is bounded), and the live nodes drop the channels.
func TestRedlockIdleChannels(t *testing.T) {
	l, servers, cs := startRedlock(t, 3, WithBackoff(time.Millisecond, 2*time.Millisecond), WithNodeTimeout(100*time.Millisecond))
	ctx := testCtx(t)
	const keys = maxIdleChannels + 8
	for i := 0; i < keys; i++ {
		if err := cs[0].Set(ctx, fmt.Sprintf("idle-%d", i), "other", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		if err := cs[1].Set(ctx, fmt.Sprintf("idle-%d", i), "other", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	wait := func(i int) {
		t.Helper()
		actx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		start := time.Now()
		if _, err := l.Acquire(actx, fmt.Sprintf("idle-%d", i), time.Minute); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Acquire of a held key: %v, want DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Acquire of key %d took %v with a node down", i, d)
		}
	}
	wait(0) // subscribed on every node
	servers[2].Kill()
	for i := 1; i < keys; i++ {
		wait(i)
	}
	l.notify.mu.Lock()
	left := len(l.notify.channels)
	l.notify.mu.Unlock()
	if left > maxIdleChannels+1 {
		t.Fatalf("%d channels kept, want at most %d", left, maxIdleChannels+1)
	}
	// UNSUBSCRIBE is sent on the pub/sub connection without waiting for
	// its confirmation, so the server may still be reading it when NUMSUB
	// arrives on another connection: give it a moment.
	var got int64
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		n, err := cs[0].PubSubNumSub(ctx, channelPrefix+"idle-0").Result()
		if err != nil {
			t.Fatal(err)
		}
		if got = n[channelPrefix+"idle-0"]; got == 0 || time.Now().After(deadline) {
			break
		}
	}
	if got != 0 {
		t.Fatalf("a pruned channel still has %d subscribers on a live node", got)
	}
}

// A SUBSCRIBE still on its way to one deployment when its channel is
// pruned would subscribe the channel there again after the UNSUBSCRIBE,
// for good: the notifier prunes a channel only once every SUBSCRIBE of it
// has been sent.
func TestRedlockPruneWaitsForLateSubscribe(t *testing.T) {
	l, _, cs := startRedlock(t, 3, WithBackoff(time.Millisecond, 2*time.Millisecond))
	ctx := testCtx(t)
	late := channelPrefix + "late-0"
	sent := make(chan struct{})
	release := sync.OnceFunc(func() { close(sent) })
	t.Cleanup(release)
	l.notify.beforeSubscribe = func(client int, name string) {
		if client == 2 && name == late {
			select { // bounded: subscribeAny waits for it when the others fail
			case <-sent:
			case <-time.After(10 * time.Second):
			}
		}
	}
	const maxIdle = 4
	l.notify.maxIdle = maxIdle
	for i := 0; i < 2*maxIdle+2; i++ {
		for _, c := range cs[:2] {
			if err := c.Set(ctx, fmt.Sprintf("late-%d", i), "other", time.Minute).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	wait := func(i int) {
		t.Helper()
		d := 20 * time.Millisecond
		if i == 0 {
			d = time.Second // connects the pub/sub connections first
		}
		actx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		if _, err := l.Acquire(actx, fmt.Sprintf("late-%d", i), time.Minute); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Acquire of a held key: %v, want DeadlineExceeded", err)
		}
	}
	numsub := func() int64 {
		t.Helper()
		n, err := cs[2].PubSubNumSub(ctx, late).Result()
		if err != nil {
			t.Fatal(err)
		}
		return n[late]
	}
	// late-0's SUBSCRIBE to node 2 waits while enough channels go idle to
	// prune (the waiters leave at once; nodes 0 and 1 answered).
	for i := 0; i <= maxIdle; i++ {
		wait(i)
	}
	l.notify.mu.Lock()
	_, kept := l.notify.channels[late]
	l.notify.mu.Unlock()
	if !kept {
		t.Fatal("a channel was pruned while its SUBSCRIBE was still being sent")
	}
	release()
	for deadline := time.Now().Add(5 * time.Second); numsub() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the late SUBSCRIBE never reached node 2")
		}
	}
	for i := maxIdle + 1; i < 2*maxIdle+2; i++ {
		wait(i) // prunes again
	}
	var got int64
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if got = numsub(); got == 0 || time.Now().After(deadline) {
			break
		}
	}
	if got != 0 {
		t.Fatalf("a pruned channel is still subscribed on the node its SUBSCRIBE reached late (%d subscribers)", got)
	}
}

// A SUBSCRIBE that failed everywhere is remembered by go-redis, which
// sends it again when it next connects: the notifier must make it forget
// the channel, or the process stays subscribed to a channel it never
// unsubscribes (it is not among the notifier's).
func TestFailedSubscribeForgotten(t *testing.T) {
	srv := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1, DialerRetries: 1})
	t.Cleanup(func() { _ = c.Close() })
	l := New(c)
	t.Cleanup(func() { _ = l.Close() })
	ctx := testCtx(t)
	srv.Kill()
	if w := l.notify.subscribe(ctx, "failed", "a", nil); w != nil {
		t.Fatalf("subscribe with the server down returned a waiter: %+v", w)
	}
	srv.Restart()
	w := l.notify.subscribe(ctx, "live", "b", nil)
	if !w.heard() {
		t.Fatal("the subscription after the restart was not confirmed")
	}
	defer l.notify.unsubscribe(w, false)
	// go-redis resubscribes what it remembers when it connects, before
	// it sends "live": that is confirmed, so the server has both.
	n, err := c.PubSubNumSub(ctx, "failed", "live").Result()
	if err != nil {
		t.Fatal(err)
	}
	if n["live"] != 1 || n["failed"] != 0 {
		t.Fatalf("subscribers: live %d (want 1), failed %d (want 0)", n["live"], n["failed"])
	}
}
