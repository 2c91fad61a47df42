package safelock

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestFairOrder: waiters that queued one after another get the lock in
// that order, and the releaser does not jump the queue.
func TestFairOrder(t *testing.T) {
	l, c := startLocker(t, WithFairness(), WithBackoff(time.Hour, time.Hour))
	ctx := testCtx(t)
	ks, _ := lockKeys("fair")
	h, err := l.TryAcquire(ctx, "fair", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	order := make(chan int, n)
	errc := make(chan error, n)
	// Each waiter keeps the lock until the TryAcquire below has been
	// tried: otherwise, on a slow machine, all five handoffs can finish
	// before it and leave the lock free, rightly.
	tried := make(chan struct{})
	for i := 0; i < n; i++ {
		go func() {
			lease, err := l.Acquire(ctx, "fair", time.Minute)
			if err != nil {
				errc <- err
				return
			}
			order <- i
			<-tried
			errc <- lease.Release(ctx)
		}()
		waitQueued(t, c, ks.queue, i+1)
	}
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = l.TryAcquire(ctx, "fair", time.Minute)
	close(tried)
	if !errors.Is(err, ErrNotAcquired) {
		// TryAcquire never jumps the queue: the release handed the
		// lock to the first waiter, and four more wait behind it.
		t.Fatal("TryAcquire got the lock while waiters were queued")
	}
	for i := 0; i < n; i++ {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		if got := <-order; got != i {
			t.Fatalf("grant %d went to waiter %d", i, got)
		}
	}
	if c.Exists(ctx, ks.queue, ks.places).Val() != 0 {
		t.Fatal("queue keys left behind")
	}
}

func waitQueued(tb testing.TB, c interface {
	ZCard(context.Context, string) *redis.IntCmd
}, key string, n int) {
	tb.Helper()
	ctx := testCtx(tb)
	for c.ZCard(ctx, key).Val() < int64(n) {
		select {
		case <-ctx.Done():
			tb.Fatalf("queue %s never reached %d", key, n)
		case <-time.After(time.Millisecond):
		}
	}
}

// TestFairDeadWaiter: a release hands the lock over at once past waiters
// that are gone: one whose process crashed (its channel has no listener
// left: PUBLISH reaches nobody) is skipped at once, and one that only
// polled and stopped asking is handed the key only for what is left of
// its place (the waiter ttl, here 300ms), not for its own ttl (an hour),
// then leaves the queue. The live waiter behind them gets the lock soon
// after, and TryAcquire does not jump the queue meanwhile.
func TestFairDeadWaiter(t *testing.T) {
	l, c := startLocker(t, WithFairness())
	l.opts.waiterTTL = 300 * time.Millisecond
	ctx := testCtx(t)
	ks, _ := lockKeys("dead")
	h, err := l.TryAcquire(ctx, "dead", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	crashed, stopped := NewToken(), NewToken()
	for _, w := range []struct{ token, listen string }{
		{crashed, "=" + ownChannelPrefix + "gone"},
		{stopped, "-"},
	} {
		if g, err := l.nodes[0].acquire(ctx, ks, w.token, time.Hour, &l.opts, firstWait, w.listen); err != nil || g.ok {
			t.Fatalf("dead waiter joining: %+v %v", g, err)
		}
	}
	got := make(chan error, 1)
	go func() {
		lease, err := l.Acquire(ctx, "dead", time.Minute)
		if err == nil {
			err = lease.Release(ctx)
		}
		got <- err
	}()
	waitQueued(t, c, ks.queue, 3)
	start := time.Now()
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if holder := c.Get(ctx, "dead").Val(); holder != stopped {
		t.Fatalf("the lock went to %q, want the polling waiter behind the crashed one", holder)
	}
	if pttl := c.PTTL(ctx, "dead").Val(); pttl <= 0 || pttl > l.opts.waiterTTL {
		t.Fatalf("a polling waiter's handoff lasts %v, want at most its place's %v", pttl, l.opts.waiterTTL)
	}
	if _, err := l.TryAcquire(ctx, "dead", time.Minute); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("TryAcquire with a waiter queued: %v, want ErrNotAcquired", err)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	// Generous for a busy machine, far below the dead waiter's hour.
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the live waiter got the lock %v after the release", d)
	}
	for _, tok := range []string{crashed, stopped} {
		if c.ZScore(ctx, ks.queue, tok).Err() == nil || c.HExists(ctx, ks.places, tok).Val() {
			t.Fatal("dead waiter still queued")
		}
	}
}

// TestFairCancelledWaiterLeaves: a waiter whose ctx ends leaves the queue
// at once, so the next waiter is not held up.
func TestFairCancelledWaiterLeaves(t *testing.T) {
	l, c := startLocker(t, WithFairness())
	ctx := testCtx(t)
	ks, _ := lockKeys("cancel")
	h, err := l.TryAcquire(ctx, "cancel", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := l.Acquire(wctx, "cancel", time.Minute)
		errc <- err
	}()
	waitQueued(t, c, ks.queue, 1)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	if n := c.ZCard(ctx, ks.queue).Val(); n != 0 {
		t.Fatalf("%d waiters queued after cancel", n)
	}
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	lease, err := l.TryAcquire(ctx, "cancel", time.Minute)
	if err != nil {
		t.Fatalf("TryAcquire after the only waiter left: %v", err)
	}
	_ = lease.Release(ctx)
}

func TestFairManyContenders(t *testing.T) {
	l, _ := startLocker(t, WithFairness())
	ctx := testCtx(t)
	const clients, rounds = 6, 8
	grants := make([]int, clients)
	errc := make(chan error, clients)
	for i := 0; i < clients; i++ {
		go func() {
			for r := 0; r < rounds; r++ {
				lease, err := l.Acquire(ctx, "many", time.Second)
				if err != nil {
					errc <- fmt.Errorf("client %d: %w", i, err)
					return
				}
				grants[i]++
				if err := lease.Release(ctx); err != nil {
					errc <- err
					return
				}
			}
			errc <- nil
		}()
	}
	for i := 0; i < clients; i++ {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	for i, g := range grants {
		if g != rounds {
			t.Fatalf("client %d got %d grants", i, g)
		}
	}
}

// TestFairExpiredHolderPassesOn: holders that stop without releasing (a
// pause past the ttl) still pass the lock on, in queue order, soon after
// each key expires. Nobody publishes an expiry, so the waiters must ask
// again when the key they last saw held would expire, or they sleep the
// long keep-place pause (a quarter of the waiter ttl, here 2s and more).
func TestFairExpiredHolderPassesOn(t *testing.T) {
	l, c := startLocker(t, WithFairness())
	l.opts.waiterTTL = 8 * time.Second // the keep-place pause is 2s to 2.7s
	ctx := testCtx(t)
	ks, _ := lockKeys("expire")
	const ttl = 150 * time.Millisecond
	if _, err := l.TryAcquire(ctx, "expire", ttl); err != nil {
		t.Fatal(err)
	}
	const n = 3
	type grantAt struct {
		i  int
		at time.Time
	}
	grants := make(chan grantAt, n)
	errc := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			// Each waiter in turn also stops without releasing.
			_, err := l.Acquire(ctx, "expire", ttl)
			if err == nil {
				grants <- grantAt{i, time.Now()}
			}
			errc <- err
		}()
		waitQueued(t, c, ks.queue, i+1)
	}
	start := time.Now()
	prev := start
	// A handoff takes about ttl after the previous grant; the bound is
	// generous for a busy machine but below the keep-place pause.
	const bound = ttl + 1500*time.Millisecond
	for k := 0; k < n; k++ {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		g := <-grants
		if g.i != k {
			t.Fatalf("grant %d went to waiter %d", k, g.i)
		}
		if gap := g.at.Sub(prev); gap > bound {
			t.Errorf("grant %d came %v after the previous one, whose key expired after %v", k, gap, ttl)
		}
		prev = g.at
	}
	t.Logf("%d handoffs by expiry in %v (ttl %v)", n, prev.Sub(start), ttl)
}

// TestFairHeadLeavesWhileHeld: when the head of the queue gives up while
// the lock is held, the next waiter, now first without being told, takes
// the lock soon after the holder's key expires without a release.
func TestFairHeadLeavesWhileHeld(t *testing.T) {
	l, c := startLocker(t, WithFairness())
	l.opts.waiterTTL = 8 * time.Second // the keep-place pause is 2s to 2.7s
	ctx := testCtx(t)
	ks, _ := lockKeys("leave")
	const ttl = 300 * time.Millisecond
	if _, err := l.TryAcquire(ctx, "leave", ttl); err != nil {
		t.Fatal(err)
	}
	hctx, cancel := context.WithCancel(ctx)
	headErr := make(chan error, 1)
	go func() {
		_, err := l.Acquire(hctx, "leave", ttl)
		headErr <- err
	}()
	waitQueued(t, c, ks.queue, 1)
	next := make(chan error, 1)
	go func() {
		lease, err := l.Acquire(ctx, "leave", time.Minute)
		if err == nil {
			err = lease.Release(ctx)
		}
		next <- err
	}()
	waitQueued(t, c, ks.queue, 2)
	start := time.Now()
	cancel()
	if err := <-headErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("head that gave up: %v", err)
	}
	if err := <-next; err != nil {
		t.Fatal(err)
	}
	// Generous for a busy machine, but below the keep-place pause.
	if d := time.Since(start); d > ttl+1500*time.Millisecond {
		t.Errorf("next waiter got the lock %v after the head left (holder's ttl %v)", d, ttl)
	}
}

// TestFairStrayHandoffPassedOn: a handoff can reach a waiter's process
// after the waiter left, when its place outlived it (a failover restored
// an older queue, or its leave never reached the server). The notifier
// then hands the lock on at once, instead of the lock staying with
// nobody for the gone waiter's ttl (here an hour).
func TestFairStrayHandoffPassedOn(t *testing.T) {
	l, c := startLocker(t, WithFairness())
	other := New(c, WithFairness())
	t.Cleanup(func() { _ = other.Close() })
	ctx := testCtx(t)
	ks, _ := lockKeys("stray")
	h, err := l.TryAcquire(ctx, "stray", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	// A waiter of l queues, listening on l's channel, and leaves without
	// taking its place out of the queue.
	gone := NewToken()
	w := l.notify.subscribe(ctx, l.notify.own(), gone, ks)
	if w == nil || !w.heard() {
		t.Fatal("no subscription")
	}
	if g, err := l.nodes[0].acquire(ctx, ks, gone, time.Hour, &l.opts, firstWait, l.notify.listen()); err != nil || g.ok {
		t.Fatalf("stale waiter joining: %+v %v", g, err)
	}
	l.notify.unsubscribe(w, false)
	got := make(chan error, 1)
	go func() {
		lease, err := other.Acquire(ctx, "stray", time.Minute)
		if err == nil {
			err = lease.Release(ctx)
		}
		got <- err
	}()
	waitQueued(t, c, ks.queue, 2)
	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the lock stayed with the gone waiter (key holds %q)", c.Get(ctx, "stray").Val())
	}
}

// TestFairStrayHandoffToHeldLease: a late copy of the handoff that gave a
// lease of this Locker its lock (the waiter took it by its own attempt
// first, and left) is not passed on: the lease holds the lock.
func TestFairStrayHandoffToHeldLease(t *testing.T) {
	l, c := startLocker(t, WithFairness())
	ctx := testCtx(t)
	ks, _ := lockKeys("held")
	tok := NewToken()
	w := l.notify.subscribe(ctx, l.notify.own(), tok, ks)
	if w == nil || !w.heard() {
		t.Fatal("no subscription")
	}
	if err := c.Set(ctx, "held", tok, time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	lease := newLease(l, ks, tok, 7, time.Minute, time.Now().Add(time.Minute))
	l.hold(lease) // as Acquire does for a token that was queued
	l.notify.unsubscribe(w, false)
	if err := c.Publish(ctx, l.notify.own(), tok+"=7").Err(); err != nil {
		t.Fatal(err)
	}
	// A pass-on would run at once; give it ample time to show.
	time.Sleep(300 * time.Millisecond)
	if got := c.Get(ctx, "held").Val(); got != tok {
		t.Fatalf("the lease's lock was passed on: key holds %q", got)
	}
	if err := lease.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestPauseAtExpiry: a queued waiter told PTTL 0 (the key is in the
// millisecond it expires in: Redis still returns it) asks again at once
// rather than sleeping the keep-place pause while the lock lies free, and a
// waiter never asks before a reported PTTL has run out. The first
// expiryWatchers waiters do so, not only the head (nobody tells a waiter
// that it moved up); the ones further back, and any waiter when the
// holder's key outlives the keep-place pause, keep that pause.
func TestPauseAtExpiry(t *testing.T) {
	l := &Locker{opts: options{queue: true, waiterTTL: 8 * time.Second}} // keep-place pause 2s to 2.7s
	for _, pttl := range []time.Duration{0, time.Millisecond, 150 * time.Millisecond} {
		d := l.pause(grant{pttl: pttl}, 0, true)
		if d <= pttl || d > pttl+expiryMargin {
			t.Errorf("waiter told pttl %v pauses %v, want in (%v, %v]", pttl, d, pttl, pttl+expiryMargin)
		}
	}
	for _, g := range []grant{
		{pttl: -time.Millisecond}, // PTTL -1: a key without a ttl never expires
		{pttl: time.Hour},
		{pttl: time.Millisecond, ahead: expiryWatchers}, // others watch
	} {
		if d := l.pause(g, 0, true); d < 2*time.Second || d > 2700*time.Millisecond {
			t.Errorf("waiter told pttl %v with %d ahead pauses %v, want the keep-place pause", g.pttl, g.ahead, d)
		}
	}
	if d := l.pause(grant{pttl: time.Millisecond, ahead: expiryWatchers - 1}, 0, true); d > time.Millisecond+expiryMargin {
		t.Errorf("waiter with %d ahead told pttl 1ms pauses %v, want it to watch the expiry", expiryWatchers-1, d)
	}
}
