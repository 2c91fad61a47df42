package safelock

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Errors returned by the package. Test them with errors.Is: most are wrapped
// with the key and the reason.
var (
	// ErrNotAcquired: another owner holds the lock (or, with WithFairness,
	// other waiters are ahead in the queue).
	ErrNotAcquired = errors.New("safelock: not acquired")
	// ErrLeaseLost: the key no longer holds this lease's token, or the
	// lease's safe deadline passed before a renew succeeded.
	ErrLeaseLost = errors.New("safelock: lease lost")
	// ErrReleased is a released lease's Err.
	ErrReleased = errors.New("safelock: lease released")
	// ErrReplicaAck: fewer replicas than WithReplicaAck asked for
	// acknowledged the acquire; the lock was given back.
	ErrReplicaAck = errors.New("safelock: too few replicas acknowledged")
	// ErrInvalid: bad input (empty key, ttl below 1ms, nil client, no nodes).
	ErrInvalid = errors.New("safelock: invalid argument")
)

// Drift allowance: a lease counts itself lost at acquire start + ttl -
// (ttl/100 + 2ms), measured on the local monotonic clock. The allowance
// covers the server's clock running fast relative to ours (Redis expires
// keys by its wall clock) and the expiry granularity.
const (
	driftFactor = 100
	driftFixed  = 2 * time.Millisecond
)

func drift(ttl time.Duration) time.Duration { return ttl/driftFactor + driftFixed }

// Defaults for the options.
const (
	defaultBackoffMin  = 2 * time.Millisecond
	defaultBackoffMax  = 100 * time.Millisecond
	defaultWaiterTTL   = 2 * time.Second
	subscribeWait      = 250 * time.Millisecond // longest wait for a SUBSCRIBE confirmation
	cleanupTimeout     = time.Second            // for releases and queue exits after ctx ended
	orphanTimeout      = 250 * time.Millisecond // for releasing a failed or abandoned attempt
	defaultNodeTimeout = 50 * time.Millisecond
)

// Option configures a Locker.
type Option func(*options)

type options struct {
	// queue: one deployment, where waiters queue and a release hands the
	// lock to the first of them (Redlock waiters are woken to retry).
	queue          bool
	fair           bool
	waiterTTL      time.Duration
	autoRenew      bool
	replicas       int
	replicaTimeout time.Duration
	backoffMin     time.Duration
	backoffMax     time.Duration
	nodeTimeout    time.Duration
	err            error
}

// WithFairness makes the lock first come, first served: a caller takes
// a free lock only when nobody is queued ahead of it. Without it, waiters
// queue as well and a release hands the lock to the longest waiting, but
// a caller that finds the lock free (its holder let it expire) takes it.
// A waiter whose process died is skipped; one that stops asking leaves
// the queue by itself after about two seconds. TryAcquire never joins
// the queue and fails while anyone is queued. Not available with
// NewRedlock.
func WithFairness() Option { return func(o *options) { o.fair = true } }

// WithAutoRenew starts a watchdog for every lease: it renews at about a
// third of the ttl (with jitter) and retries failed renews until the safe
// deadline. Done closes as soon as Redis answers that the key no longer
// holds the token, or when the safe deadline passes.
func WithAutoRenew() Option { return func(o *options) { o.autoRenew = true } }

// WithReplicaAck sends WAIT n timeout in the same round trip as the acquire
// and, when fewer than n replicas acknowledge in time, releases the lock and
// fails with ErrReplicaAck. Renew (and the watchdog) sends WAIT the same
// way, after the renew script (Lua, also on Redis 8.4); when too few
// replicas acknowledge, Renew fails with ErrReplicaAck and the lease keeps
// its old safe deadline (a replica promoted then would expire the key at
// the old time), and the watchdog retries until that deadline. This
// narrows, but does not close, the window in which a failover hands the
// lock to a second owner: WAIT does not make Redis strongly consistent.
// Keep timeout below the client's read timeout. On Redis 7.0 a WAIT now
// and then lasts until the replica's next periodic ACK (about a second;
// 3 of 120 WAITs on 7.0.15 in the measurement the README gives), so a
// shorter timeout gives some grants back with ErrReplicaAck.
func WithReplicaAck(n int, timeout time.Duration) Option {
	return func(o *options) {
		if n < 1 || timeout < time.Millisecond {
			o.err = fmt.Errorf("%w: WithReplicaAck(%d, %v) needs n >= 1 and timeout >= 1ms", ErrInvalid, n, timeout)
			return
		}
		o.replicas, o.replicaTimeout = n, timeout
	}
}

// WithBackoff sets the bounds of Acquire's capped exponential backoff with
// full jitter between attempts that no release notification cut short
// (default 2ms, doubling up to 100ms).
func WithBackoff(lo, hi time.Duration) Option {
	return func(o *options) {
		if lo <= 0 || hi < lo {
			o.err = fmt.Errorf("%w: WithBackoff(%v, %v) needs 0 < min <= max", ErrInvalid, lo, hi)
			return
		}
		o.backoffMin, o.backoffMax = lo, hi
	}
}

// WithNodeTimeout bounds each node's answer in a Redlock attempt (default
// 50ms); a slow node counts as a refusal.
func WithNodeTimeout(d time.Duration) Option {
	return func(o *options) {
		if d <= 0 {
			o.err = fmt.Errorf("%w: WithNodeTimeout(%v) needs a positive duration", ErrInvalid, d)
			return
		}
		o.nodeTimeout = d
	}
}

// Locker takes leases on one Redis deployment (New) or on a majority of
// independent ones (NewRedlock). It is safe for concurrent use.
type Locker struct {
	nodes  []*node
	opts   options
	err    error // bad construction, reported by every call
	notify *notifier
	held   sync.Map // one deployment: token -> *Lease of a queued waiter, until it ends

	// last is the key this Locker took last: a Locker mostly takes the
	// same few keys again and again, and naming a key's derived keys
	// costs two allocations that show in an uncontended cycle.
	last atomic.Pointer[keySet]
}

// New returns a Locker on client: a plain, failover or cluster client.
// A nil client gives a Locker whose every call fails with ErrInvalid.
//
// Create the client with ContextTimeoutEnabled: true. Without it, go-redis
// does not apply ctx deadlines to a connection that stopped answering, and
// a call can take the client's read timeout or longer whatever its ctx
// (see the package documentation).
// New adds a hook to the client (once per client) that remembers its last
// failed dial, so that an error after ctx ended can name its cause.
func New(client redis.UniversalClient, opts ...Option) *Locker {
	l := newLocker([]redis.UniversalClient{client}, opts)
	if isNil(client) {
		l.err = fmt.Errorf("%w: nil redis client", ErrInvalid)
	}
	return l
}

// NewRedlock returns a Locker that takes each lease on a majority of
// independent Redis deployments (the Redlock algorithm). Create the
// clients with ContextTimeoutEnabled: true, as for New. Attempts run in
// parallel with a short per-node timeout, the lease's validity is ttl minus
// the time the attempt took minus the drift allowance, and a failed attempt
// is released on every node. Its Fence is the highest per-node counter of
// the granting majority; see the package documentation for what that
// guarantees.
func NewRedlock(clients []redis.UniversalClient, opts ...Option) *Locker {
	l := newLocker(clients, opts)
	switch {
	case len(clients) == 0:
		l.err = fmt.Errorf("%w: NewRedlock needs at least one client", ErrInvalid)
	case l.opts.fair && len(clients) > 1:
		l.err = fmt.Errorf("%w: WithFairness is not available with NewRedlock", ErrInvalid)
	}
	for i, c := range clients {
		if isNil(c) {
			l.err = fmt.Errorf("%w: NewRedlock client %d is nil", ErrInvalid, i)
		}
	}
	return l
}

func newLocker(clients []redis.UniversalClient, opts []Option) *Locker {
	l := &Locker{opts: options{
		waiterTTL:   defaultWaiterTTL,
		backoffMin:  defaultBackoffMin,
		backoffMax:  defaultBackoffMax,
		nodeTimeout: defaultNodeTimeout,
	}}
	for _, o := range opts {
		if o != nil {
			o(&l.opts)
		}
	}
	l.err = l.opts.err
	l.opts.queue = len(clients) == 1
	for _, c := range clients {
		l.nodes = append(l.nodes, &node{c: c, dials: watchDials(c)})
	}
	if len(clients) > 0 && !slices.ContainsFunc(clients, func(c redis.UniversalClient) bool { return isNil(c) }) {
		l.notify = newNotifier(clients, 2*l.opts.waiterTTL, l.passOn)
	}
	return l
}

// Close stops the Locker's pub/sub connections (one per deployment), used
// by waiting Acquire calls. It does not close the Redis clients, and
// leases stay valid.
func (l *Locker) Close() error {
	if l == nil || l.notify == nil {
		return nil
	}
	return l.notify.close()
}

func (l *Locker) check(key string, ttl time.Duration) (*keySet, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil Locker", ErrInvalid)
	}
	if l.err != nil {
		return nil, l.err
	}
	ks := l.last.Load()
	if ks == nil || ks.lock != key {
		var err error
		if ks, err = lockKeys(key); err != nil {
			return nil, err
		}
		l.last.Store(ks)
	}
	return ks, checkTTL(ttl)
}

// TryAcquire makes one attempt to take key for ttl. It returns
// ErrNotAcquired when another owner holds it. On one deployment it costs
// one round trip when it takes the lock (SET NX PX and the fence's INCR in
// a pipeline, or the acquire script) and two when the key is held.
func (l *Locker) TryAcquire(ctx context.Context, key string, ttl time.Duration) (*Lease, error) {
	ks, err := l.check(key, ttl)
	if err != nil {
		return nil, err
	}
	lease, _, err := l.attempt(ctx, ks, NewToken(), ttl, tryOnce)
	return lease, err
}

// Acquire waits until it takes key for ttl or ctx ends; then the error
// wraps ctx.Err(). On one deployment a waiter queues in Redis and the
// release hands it the lock through pub/sub (one connection per Locker,
// opened on the first wait; see Close); it asks again only to keep its
// place, or when the holder's key would have expired. With NewRedlock a
// release wakes the longest waiter, which retries (the Locker listens on
// every deployment, a pub/sub connection each); between wake-ups a
// waiter retries with capped exponential backoff and full jitter, and
// never sleeps past the holder's remaining ttl. Errors other than
// ErrNotAcquired (a server that cannot be reached, ErrReplicaAck) end the
// wait at once.
func (l *Locker) Acquire(ctx context.Context, key string, ttl time.Duration) (*Lease, error) {
	ks, err := l.check(key, ttl)
	if err != nil {
		return nil, err
	}
	return l.acquire(ctx, ks, ttl)
}

func (l *Locker) acquire(ctx context.Context, ks *keySet, ttl time.Duration) (lease *Lease, err error) {
	token := NewToken()
	channel := ks.channel
	var queued *keySet
	if l.opts.queue {
		channel, queued = l.notify.own(), ks
	}
	w := l.notify.join(channel, token, queued)
	defer func() { l.notify.unsubscribe(w, lease != nil) }()
	start := time.Now()
	var g grant
	lease, g, err = l.attempt(ctx, ks, token, ttl, firstWait)
	if !errors.Is(err, ErrNotAcquired) {
		return lease, err // never queued
	}
	if l.opts.queue {
		// Runs before the deferred unsubscribe (defers run last first).
		defer func() {
			if lease != nil {
				l.hold(lease)
			}
		}()
	}
	if w == nil {
		w = l.notify.subscribe(ctx, channel, token, queued)
		if w != nil && (w.since.IsZero() || w.since.After(start)) {
			// The subscription is newer than the attempt: a release in
			// between was not heard (and a queued waiter's place does not
			// say where it listens), so look again now.
			lease, g, err = l.attempt(ctx, ks, token, ttl, firstWait)
		}
	}
	for try := 0; errors.Is(err, ErrNotAcquired); try++ {
		msg, werr := l.wait(ctx, w, l.pause(g, try, w.heard()))
		if werr != nil {
			err = fmt.Errorf("safelock: acquire %q: %w", ks.lock, werr)
			break
		}
		if l.opts.queue {
			switch n := parseNotice(msg); {
			case n.fence > g.floor:
				// A release handed the lock to this waiter after its
				// last attempt ran.
				lease, err = l.handedLease(ctx, ks, token, ttl, g.asked, n)
				if !errors.Is(err, ErrNotAcquired) {
					continue
				}
				// The key expired before the confirmation: ask again.
			}
		}
		mode := waited
		if msg == token {
			mode = named
		}
		lease, g, err = l.attempt(ctx, ks, token, ttl, mode)
	}
	if err != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if l.opts.queue {
			// Else it leaves after the waiter ttl; and a lock handed to it
			// meanwhile passes on.
			_ = l.nodes[0].leaveQueue(cctx, ks, token)
		} else {
			l.each(cctx, func(ctx context.Context, _ int, n *node) { _ = n.leaveWaiters(ctx, ks, token) })
		}
	}
	if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		// Not acquired, and ctx ended meanwhile.
		return nil, fmt.Errorf("safelock: acquire %q: %w", ks.lock, ctx.Err())
	}
	return lease, err
}

// hold records a lease whose token was queued, until it ends, so that a
// handoff to that token arriving late (see passOn) is not passed on. It
// runs before the waiter leaves its channel, so before passOn can look.
func (l *Locker) hold(lease *Lease) {
	lease.mu.Lock()
	lease.queued = true
	lease.mu.Unlock()
	l.held.Store(lease.token, lease)
	if lease.Err() != nil { // ended already: finishLocked may have missed the Store
		l.held.Delete(lease.token)
	}
}

// passOn hands on a queued lock handed to a waiter of this Locker that had
// already left (its place outlived it), unless a lease of this Locker
// holds the token: then it is that lease's to release.
func (l *Locker) passOn(ks *keySet, token string) {
	if v, ok := l.held.Load(token); ok && v.(*Lease).Err() == nil || len(l.nodes) != 1 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	_ = l.nodes[0].leaveQueue(ctx, ks, token)
}

// expiryMargin is how long after a reported PTTL a waiter asks again.
// Redis counts whole milliseconds and keeps a key through the millisecond
// it expires in (PTTL 0), so an attempt sent half a millisecond after the
// PTTL ran out can still find the key, and a waiter told PTTL 0 used to
// sleep a whole keep-place pause while the lock lay free.
const expiryMargin = time.Millisecond

// expiryWatchers is how many waiters at the front of a queue look again
// when the holder's key would expire (see pause).
const expiryWatchers = 3

// pause is how long a waiter sleeps unless a release wakes it. heard says
// whether release messages reach it: a queued waiter is then handed the
// lock by the release, and only asks again to keep its place in the
// queue, or, when it is among the first expiryWatchers of the queue at
// its last ask, when the key of the holder that ask saw would have
// expired, whichever comes first. Nobody publishes an expiry, and any
// waiter that finds the key free hands it to the head. A release does
// not tell the waiters that they moved up (that would cost a PUBLISH and
// a wake-up per handoff), so a waiter's place is the one its last ask
// saw, or nearer the front: after as many handoffs the first waiters may
// all be unaware, and an expiry is found at the next keep-place ask at
// the latest. Only the first few watch so that a queue on a ttl shorter
// than the keep-place pause asks about expiryWatchers times per ttl,
// not once per waiter.
func (l *Locker) pause(g grant, try int, heard bool) time.Duration {
	if l.opts.queue && heard {
		keep := l.opts.waiterTTL/4 + rand.N(l.opts.waiterTTL/12+1)
		if g.pttl >= 0 && g.ahead < expiryWatchers { // -1: a key without ttl
			return min(keep, g.pttl+expiryMargin)
		}
		return keep
	}
	hi := l.opts.backoffMax
	if try < 30 && l.opts.backoffMin<<try < hi {
		hi = l.opts.backoffMin << try
	}
	d := rand.N(hi) + 1 // full jitter
	if g.pttl > 0 && g.pttl < d {
		d = g.pttl + expiryMargin // the holder's key expires by then
	}
	return d
}

// wait sleeps d, or until a release message wakes w (then it returns the
// message), or until ctx ends.
func (l *Locker) wait(ctx context.Context, w *waiter, d time.Duration) (string, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	var wake <-chan string
	if w != nil {
		wake = w.wake
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-t.C:
	case msg := <-wake:
		return msg, nil
	}
	return "", nil
}

// notice is a queued waiter's handoff message: "token=fence" when the
// lock was handed to it for its ttl, "token=fence,px" when for px ms
// only.
type notice struct {
	fence int64
	px    time.Duration
}

func parseNotice(msg string) notice {
	_, rest, ok := strings.Cut(msg, "=")
	if !ok {
		return notice{}
	}
	num, px, capped := strings.Cut(rest, ",")
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return notice{}
	}
	out := notice{fence: n}
	if capped {
		ms, err := strconv.ParseInt(px, 10, 64)
		if err != nil || ms <= 0 {
			return notice{}
		}
		out.px = time.Duration(ms) * time.Millisecond
	}
	return out
}

// handedLease makes a lease of the lock a release handed to this waiter
// (n). The release set the key for ttl (or n.px) after this waiter's last
// attempt ran (n.fence is above the counter that attempt saw), so after
// asked, when that attempt was sent: asked + ttl - drift is a safe
// deadline on this clock, however late the message arrived. When that
// leaves less than three quarters of the lease, or replicas must
// acknowledge the key, one renew confirms it and the deadline counts
// from the renew instead; a renew that finds the key gone (it expired
// before this waiter heard) gives ErrNotAcquired.
func (l *Locker) handedLease(ctx context.Context, ks *keySet, token string, ttl time.Duration, asked time.Time, n notice) (*Lease, error) {
	valid := ttl - drift(ttl)
	set := ttl
	if n.px > 0 {
		set = min(ttl, n.px)
	}
	if deadline := asked.Add(set - drift(ttl)); l.opts.replicas == 0 && time.Until(deadline) >= valid*3/4 {
		return newLease(l, ks, token, n.fence, ttl, deadline), nil
	}
	start := time.Now()
	ok, err := l.nodes[0].renew(ctx, ks, token, ttl, &l.opts)
	if err != nil {
		return nil, l.wrap(ctx, "acquire", ks.lock, start, err)
	}
	if !ok {
		return nil, ErrNotAcquired
	}
	lease, _, err := l.grantLease(ctx, ks, token, ttl, start, n.fence)
	return lease, err
}

// attempt makes one try on every node and returns a lease when the key was
// taken on all of them (one node) or on a majority (Redlock).
func (l *Locker) attempt(ctx context.Context, ks *keySet, token string, ttl time.Duration, mode attemptMode) (*Lease, grant, error) {
	start := time.Now()
	if len(l.nodes) == 1 {
		listen := "-"
		if mode != tryOnce {
			listen = l.notify.listen()
		}
		g, err := l.nodes[0].acquire(ctx, ks, token, ttl, &l.opts, mode, listen)
		if err != nil {
			if ctx.Err() != nil {
				// The script may have run before ctx ended: don't leave
				// a lock nobody knows about until its ttl runs out.
				l.releaseAll(ctx, ks, token)
			}
			return nil, g, l.wrap(ctx, "acquire", ks.lock, start, err)
		}
		if !g.ok {
			g.asked = start
			return nil, g, ErrNotAcquired
		}
		return l.grantLease(ctx, ks, token, ttl, start, g.fence)
	}
	return l.attemptQuorum(ctx, ks, token, ttl, start, mode)
}

func (l *Locker) attemptQuorum(ctx context.Context, ks *keySet, token string, ttl time.Duration, start time.Time, mode attemptMode) (*Lease, grant, error) {
	type result struct {
		g   grant
		err error
	}
	res := make([]result, len(l.nodes))
	l.each(ctx, func(ctx context.Context, i int, n *node) {
		res[i].g, res[i].err = n.acquire(ctx, ks, token, ttl, &l.opts, mode, "-")
	})
	var (
		granted []int
		errs    []error
		fence   int64
		hint    grant
	)
	for i, r := range res {
		switch {
		case r.err != nil:
			errs = append(errs, fmt.Errorf("node %d: %w", i, r.err))
		case r.g.ok:
			granted = append(granted, i)
			fence = max(fence, r.g.fence)
		case r.g.pttl > hint.pttl:
			hint = r.g
		}
	}
	quorum := len(l.nodes)/2 + 1
	if len(granted) >= quorum && time.Since(start) < ttl-drift(ttl) {
		// Lift the granting nodes' counters to this fence before anyone
		// uses it, so any later majority (which shares a node with this
		// one) issues a higher fence.
		raised := make([]bool, len(l.nodes))
		l.each(ctx, func(ctx context.Context, i int, n *node) {
			if res[i].g.ok {
				raised[i] = n.raiseFence(ctx, ks, fence) == nil
			}
		})
		count := 0
		for _, ok := range raised {
			if ok {
				count++
			}
		}
		if count >= quorum {
			return l.grantLease(ctx, ks, token, ttl, start, fence)
		}
		errs = append(errs, fmt.Errorf("fence raised on %d nodes only", count))
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), orphanTimeout)
	l.each(cctx, func(ctx context.Context, i int, n *node) {
		if res[i].err != nil || res[i].g.ok {
			n.releaseQuietly(ctx, ks, token)
		}
	})
	cancel()
	if ctx.Err() != nil {
		return nil, hint, l.wrap(ctx, "acquire", ks.lock, start, errors.Join(errs...))
	}
	if len(errs) > len(l.nodes)-quorum {
		return nil, hint, fmt.Errorf("safelock: acquire %q: %d of %d nodes granted, quorum %d: %w",
			ks.lock, len(granted), len(l.nodes), quorum, errors.Join(errs...))
	}
	return nil, hint, ErrNotAcquired
}

// grantLease turns a successful attempt into a Lease, unless the attempt
// took so long that the lease would already be past its safe deadline.
func (l *Locker) grantLease(ctx context.Context, ks *keySet, token string, ttl time.Duration, start time.Time, fence int64) (*Lease, grant, error) {
	deadline := start.Add(ttl - drift(ttl))
	if !time.Now().Before(deadline) {
		l.releaseAll(ctx, ks, token)
		return nil, grant{}, fmt.Errorf("safelock: acquire %q: ttl %v leaves no validity after the round trip and the drift allowance %v", ks.lock, ttl, drift(ttl))
	}
	return newLease(l, ks, token, fence, ttl, deadline), grant{ok: true, fence: fence}, nil
}

func (l *Locker) releaseAll(ctx context.Context, ks *keySet, token string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), orphanTimeout)
	defer cancel()
	_, _ = l.release(cctx, ks, token, 0)
}

// each runs fn on every node in parallel, each call bounded by the node
// timeout, and returns when all have returned.
func (l *Locker) each(ctx context.Context, fn func(ctx context.Context, i int, n *node)) {
	var wg sync.WaitGroup
	for i, n := range l.nodes {
		wg.Go(func() {
			nctx, cancel := context.WithTimeout(ctx, l.opts.nodeTimeout)
			defer cancel()
			fn(nctx, i, n)
		})
	}
	wg.Wait()
}

// release and renew report whether the key still held the token: on one
// node, there; with Redlock, on a majority. A release that hands the lock
// to a waiter of this Locker tells it itself: the script publishes
// nothing for it (see queueLua).
func (l *Locker) release(ctx context.Context, ks *keySet, token string, fence int64) (bool, error) {
	if len(l.nodes) == 1 {
		ok, handed, err := l.nodes[0].release(ctx, ks, token, fence, true, l.notify.here())
		if handed != "" {
			l.notify.handOver(handed)
		}
		return ok, err
	}
	// A Redlock lease's fence is the highest of the nodes' counters, not
	// each node's own: nodes judge by the token alone.
	return l.quorum(ctx, func(ctx context.Context, n *node) (bool, error) {
		ok, _, err := n.release(ctx, ks, token, 0, false, "")
		return ok, err
	})
}

func (l *Locker) renew(ctx context.Context, ks *keySet, token string, ttl time.Duration) (bool, error) {
	if len(l.nodes) == 1 {
		return l.nodes[0].renew(ctx, ks, token, ttl, &l.opts)
	}
	return l.quorum(ctx, func(ctx context.Context, n *node) (bool, error) {
		return n.renew(ctx, ks, token, ttl, &l.opts)
	})
}

func (l *Locker) quorum(ctx context.Context, fn func(context.Context, *node) (bool, error)) (bool, error) {
	oks := make([]bool, len(l.nodes))
	errs := make([]error, len(l.nodes))
	l.each(ctx, func(ctx context.Context, i int, n *node) { oks[i], errs[i] = fn(ctx, n) })
	count, failed := 0, 0
	for i := range oks {
		if oks[i] {
			count++
		}
		if errs[i] != nil {
			failed++
		}
	}
	quorum := len(l.nodes)/2 + 1
	if count < quorum && failed > len(l.nodes)-quorum {
		return false, errors.Join(errs...)
	}
	return count >= quorum, nil
}

// Do takes key (waiting like Acquire), runs fn while a watchdog renews the
// lease, and releases it, also when fn panics. fn's ctx is cancelled when
// the lease is lost. Do returns fn's error; else the loss of the lease
// during fn (the work may not have been protected to the end); else the
// release error.
func (l *Locker) Do(ctx context.Context, key string, ttl time.Duration, fn func(ctx context.Context, l *Lease) error) (err error) {
	ks, err := l.check(key, ttl)
	if err != nil {
		return err
	}
	if fn == nil {
		return fmt.Errorf("%w: nil func", ErrInvalid)
	}
	lease, err := l.acquire(ctx, ks, ttl)
	if err != nil {
		return err
	}
	lease.startWatchdog()
	defer func() {
		lost := lease.Err()
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		rerr := lease.Release(rctx)
		if err == nil && lost != nil {
			err = lost
		} else if err == nil {
			err = rerr
		}
	}()
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fnDone := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(fnDone)
	wg.Go(func() {
		select {
		case <-lease.Done():
			cancel()
		case <-fnDone:
		}
	})
	return fn(fctx, lease)
}
