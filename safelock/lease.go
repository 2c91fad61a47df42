package safelock

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// Lease is one holding of a lock. Its methods are safe for concurrent use.
type Lease struct {
	locker *Locker
	keys   *keySet
	token  string
	fence  int64

	mu sync.Mutex
	// done is made by the first Done, as the timer is: most leases are
	// released without anyone watching them.
	done     chan struct{}
	ttl      time.Duration
	deadline time.Time // safe deadline, on the monotonic clock
	// timer declares the lease lost at deadline; it is started by the
	// first Done (a lease nobody watches needs none: Err looks at the
	// clock), which keeps a runtime timer, and the wake-up of the
	// network poller it can cost, off the uncontended path.
	timer    *time.Timer
	err      error // why done is closed; nil while held
	released bool
	queued   bool // recorded in the Locker's held map (see Locker.hold)

	stopWatchdog context.CancelFunc // nil without a watchdog
	watchdogDone chan struct{}
}

func newLease(l *Locker, ks *keySet, token string, fence int64, ttl time.Duration, deadline time.Time) *Lease {
	lease := &Lease{locker: l, keys: ks, token: token, fence: fence, ttl: ttl, deadline: deadline}
	if l.opts.autoRenew {
		lease.startWatchdog()
	}
	return lease
}

// Key returns the locked key.
func (l *Lease) Key() string { return l.keys.lock }

// Token returns the random value the key holds while this lease owns it.
func (l *Lease) Token() string { return l.token }

// Fence returns the fencing token: strictly greater than the fence of
// every earlier lease on the same key, also after Redis lost the counter
// as long as its clock did not go back (see the package documentation,
// also for Redlock). It is a large number (the server's time in µs or
// above), not 1, 2, 3. Pass it to the protected resource and let it
// refuse writes with a lower fence than one it has accepted.
func (l *Lease) Fence() int64 { return l.fence }

// Done is closed when the lease is released or lost; at the latest by the
// safe deadline, as seen by anyone who looks after it passed.
func (l *Lease) Done() <-chan struct{} {
	l.deadlinePassed()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done == nil {
		if l.err != nil {
			return closedChan
		}
		l.done = make(chan struct{})
	}
	if l.timer == nil && l.err == nil {
		l.timer = time.AfterFunc(time.Until(l.deadline), l.deadlinePassed)
	}
	return l.done
}

// closedChan is Done's channel for a lease that ended before anyone asked.
var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// Err returns nil while the lease is held, ErrReleased after Release, and
// an error wrapping ErrLeaseLost once it was lost.
func (l *Lease) Err() error {
	l.deadlinePassed()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Deadline returns the safe deadline: until then the lease is held unless
// Redis lost the key (or, on Redlock, a majority did). It moves with each
// successful renew.
func (l *Lease) Deadline() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.deadline
}

// Release gives the lock back, deleting the key only if it still holds this
// lease's token, in one round trip. Done is closed first. It returns an
// error wrapping ErrLeaseLost when the key no longer held the token (it
// expired, and perhaps another owner holds it now, whose lock is left
// alone). Releasing again does nothing.
//
// A release whose reply is lost (a connection cut) is sent again by
// go-redis and finds the key gone. When the fence counter still holds this
// lease's fence, nobody was granted the lock since, and the release
// reports success: so that retry does, and so does a lease whose key
// expired with nobody taking the lock in between (no other holder
// overlapped it). ErrLeaseLost means another owner was granted the lock,
// or the lease was already lost (Done closed) before Release.
// A release that hands the lock to a waiter (on one deployment, when
// anyone waits) grants it at once, so such a retry then finds the lock
// granted since and reports ErrLeaseLost.
//
// It waits for a renew of the
// watchdog in flight to finish, but not past ctx: then it returns an error
// wrapping ctx.Err() without sending the release, and the key expires at
// its ttl.
func (l *Lease) Release(ctx context.Context) error {
	l.mu.Lock()
	if l.released {
		l.mu.Unlock()
		return nil
	}
	l.released = true
	lostBefore := l.err != nil && errors.Is(l.err, ErrLeaseLost)
	l.finishLocked(ErrReleased)
	watchdogDone := l.watchdogDone
	l.mu.Unlock()
	start := time.Now()
	if !waitWatchdog(ctx, watchdogDone) {
		// A client without ContextTimeoutEnabled can keep the watchdog's
		// renew waiting for a reply past every ctx; don't wait with it.
		// The key expires at its ttl.
		return fmt.Errorf("safelock: release %q: %w (not sent: the watchdog's renew was still waiting for a reply)", l.keys.lock, ctx.Err())
	}
	ok, err := l.locker.release(ctx, l.keys, l.token, l.fence)
	if err != nil {
		return l.locker.wrap(ctx, "release", l.keys.lock, start, err)
	}
	if !ok || lostBefore {
		// A lease already known lost (its key gone or taken, its safe
		// deadline passed) stays lost, even when nobody took the lock since.
		return fmt.Errorf("%w: release %q: the key no longer holds this lease's token", ErrLeaseLost, l.keys.lock)
	}
	return nil
}

// Renew sets the lock's ttl, only if the key still holds this lease's
// token, in one round trip, and moves the safe deadline to the renew's
// start + ttl - drift allowance. It returns an error wrapping ErrLeaseLost,
// and closes Done, when the key no longer held the token or the safe
// deadline passed first. Other errors (network, ctx, ErrReplicaAck with
// WithReplicaAck) leave the lease as it was, still bound by its old
// deadline.
func (l *Lease) Renew(ctx context.Context, ttl time.Duration) error {
	if err := checkTTL(ttl); err != nil {
		return err
	}
	if err := l.Err(); err != nil {
		if errors.Is(err, ErrReleased) {
			return fmt.Errorf("%w: renew %q: the lease was released", ErrLeaseLost, l.keys.lock)
		}
		return err
	}
	start := time.Now()
	ok, err := l.locker.renew(ctx, l.keys, l.token, ttl)
	if err != nil {
		return l.locker.wrap(ctx, "renew", l.keys.lock, start, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if !ok {
		l.finishLocked(fmt.Errorf("%w: renew %q: the key no longer holds this lease's token", ErrLeaseLost, l.keys.lock))
		return l.err
	}
	deadline := start.Add(ttl - drift(ttl))
	if !time.Now().Before(deadline) {
		l.finishLocked(fmt.Errorf("%w: renew %q: ttl %v leaves no validity after the round trip", ErrLeaseLost, l.keys.lock, ttl))
		return l.err
	}
	l.ttl, l.deadline = ttl, deadline
	if l.timer != nil {
		l.timer.Reset(time.Until(deadline))
	}
	return nil
}

// deadlinePassed ends the lease if its safe deadline has passed. The timer
// calls it; so do Done and Err, so that they never depend on the timer
// goroutine having run yet. A renew may have moved the deadline.
func (l *Lease) deadlinePassed() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil && !time.Now().Before(l.deadline) {
		l.finishLocked(fmt.Errorf("%w: %q: the safe deadline passed without a renew", ErrLeaseLost, l.keys.lock))
	}
}

// finishLocked closes Done with the reason err; l.mu is held.
func (l *Lease) finishLocked(err error) {
	if l.err != nil {
		return
	}
	l.err = err
	if l.queued {
		l.locker.held.Delete(l.token)
	}
	if l.timer != nil {
		l.timer.Stop()
	}
	if l.done != nil {
		close(l.done)
	}
	if l.stopWatchdog != nil {
		l.stopWatchdog()
	}
}

func (l *Lease) startWatchdog() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopWatchdog != nil || l.err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.stopWatchdog = cancel
	l.watchdogDone = make(chan struct{})
	go l.watchdog(ctx)
}

// waitWatchdog waits until the watchdog has stopped (done closed; nil
// without a watchdog), or ctx ends (false).
func waitWatchdog(ctx context.Context, done <-chan struct{}) bool {
	if done == nil {
		return true
	}
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// watchdog renews at about a third of the ttl until the lease ends. A renew
// that fails for a transient reason is retried soon; one that finds the
// token gone ends the lease (Renew closes Done).
func (l *Lease) watchdog(ctx context.Context) {
	defer close(l.watchdogDone)
	retry := false
	for {
		l.mu.Lock()
		ttl, deadline := l.ttl, l.deadline
		l.mu.Unlock()
		wait := ttl/3 - ttl/12 + rand.N(ttl/6+1) // ttl/3 ± ttl/12
		if retry {
			wait = min(ttl/10+1, time.Until(deadline)/2)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		rctx, cancel := context.WithDeadline(ctx, deadline)
		err := l.Renew(rctx, ttl)
		cancel()
		if errors.Is(err, ErrLeaseLost) || errors.Is(err, ErrReleased) || ctx.Err() != nil {
			return
		}
		retry = err != nil
	}
}
