package safelock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Whether a server has SET IFEQ, learnt on first use and kept for the
// node's lifetime.
const (
	unknown int32 = iota
	supported
	unsupported
)

// node is one Redis deployment (a server, a primary, or a whole cluster)
// that a Locker takes locks on.
type node struct {
	c       redis.UniversalClient
	dials   *dialWatch   // nil for clients that are not watched
	setIfeq atomic.Int32 // SET key token PX ttl IFEQ token
	// scripted is set once the acquire script ran here: its reply told
	// the server's version (see learn), which acquireFast cannot.
	scripted atomic.Bool
}

// grant is the answer to one acquire attempt on one node.
type grant struct {
	ok    bool
	fence int64
	pttl  time.Duration // holder's remaining ttl when !ok
	// Fair mode, when !ok: the fence counter when the attempt ran, and
	// when the attempt was sent. A handoff announced with a higher fence
	// happened after the attempt, so after asked on this clock.
	floor int64
	asked time.Time
	// One deployment, when !ok: how many waiters were queued ahead of
	// this one when the attempt ran (0 also when not queued or not told).
	ahead int64
}

// attemptMode says what an acquire attempt is for.
type attemptMode int

const (
	tryOnce   attemptMode = iota // TryAcquire
	firstWait                    // Acquire's first try
	waited                       // Acquire's tries after waiting
	named                        // a Redlock waiter's try after a release named it
)

// acquire makes one attempt. listen says how a fair waiter hears its
// handoff (see queueLua): "-", or "=" or "?" and its Locker's channel.
func (n *node) acquire(ctx context.Context, ks *keySet, token string, ttl time.Duration, o *options, mode attemptMode, listen string) (grant, error) {
	if mode == tryOnce && o.queue && !o.fair && o.replicas == 0 && n.scripted.Load() {
		return n.acquireFast(ctx, ks, token, ttl)
	}
	enqueue := mode != tryOnce
	s, keys := acquireScript, []string{ks.lock, ks.fence}
	args := []any{token, ttl.Milliseconds()}
	switch {
	case o.queue:
		s, keys = queueAcquire, ks.queued[:]
		join, fair := "0", "0"
		if enqueue {
			join = "1"
		}
		if o.fair {
			fair = "1"
		}
		args = append(args, o.waiterTTL.Milliseconds(), join, listen, fair)
	case enqueue:
		// A Redlock waiter registers itself on each node, so that a
		// release publishes only when someone waits, and wakes one
		// waiter; the registration outlives its next retry. Granted
		// after waiting, it leaves.
		keys = append(keys, ks.waiting, ks.waiters)
		args = append(args, (2 * o.backoffMax).Milliseconds())
		switch mode {
		case waited:
			args = append(args, "1")
		case named:
			args = append(args, "2")
		}
	}
	var (
		res  []any
		acks int64
		err  error
	)
	if o.replicas > 0 {
		var cmd *redis.Cmd
		if cmd, acks, err = n.runAndWait(ctx, s, keys, args, o.replicas, o.replicaTimeout); err == nil {
			res, err = cmd.Slice()
		}
	} else {
		res, err = s.Run(ctx, n.c, keys, args...).Slice()
	}
	if err != nil {
		return grant{}, err
	}
	g, version, err := parseGrant(res)
	n.learn(version)
	if err == nil {
		n.scripted.Store(true)
	}
	if err != nil || !g.ok || o.replicas == 0 || acks >= int64(o.replicas) {
		return g, err
	}
	// Too few replicas have the lock: a failover now could hand it to a
	// second owner. Give it back and fail.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, _, rerr := n.release(rctx, ks, token, 0, o.queue, "")
	return grant{}, errors.Join(fmt.Errorf("%w: %d of %d replicas acknowledged the lock on %q within %v",
		ErrReplicaAck, acks, o.replicas, ks.lock, o.replicaTimeout), rerr)
}

// acquireFast is TryAcquire's attempt on one deployment without fairness
// or replica acknowledgement: SET NX PX and the fence counter's INCR in one
// pipeline, a fraction of the server time of the acquire script (a Lua
// call costs more than the commands it runs). It is safe without the
// script's atomicity: the INCR comes after the SET on the same
// connection, so a fence issued to a holder whose key could have expired
// in between is never used (its reply comes after the lease's safe
// deadline, and the lease is then refused); a refused caller's INCR only
// raises the counter. A counter found below minFence was lost (or never
// started) and is started from the server's clock in a second round trip.
// A refusal costs a GET, in a second round trip, to tell a retried call
// (go-redis sent the pipeline again after a lost reply, and the key holds
// the caller's own token) from another holder, as the script does. (A GET
// in the pipeline, or SET NX GET, would save that round trip on a refusal
// but made every acquire measurably slower.)
func (n *node) acquireFast(ctx context.Context, ks *keySet, token string, ttl time.Duration) (grant, error) {
	p := n.c.Pipeline()
	set := p.SetNX(ctx, ks.lock, token, ttl)
	incr := p.Incr(ctx, ks.fence)
	_, _ = p.Exec(ctx)
	if err := set.Err(); err != nil {
		return grant{}, err
	}
	if !set.Val() {
		// Held by another token, or by this one: go-redis sent the
		// pipeline again after a lost reply.
		v, err := n.c.Get(ctx, ks.lock).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return grant{}, err
		}
		if v != token {
			return grant{}, nil // another holder's, or expired just now
		}
	}
	fence, err := incr.Result()
	if err == nil && fence < minFence {
		fence, err = startFence.Run(ctx, n.c, []string{ks.fence}).Int64()
	}
	if err != nil {
		// The key holds the token, with no fence to give: free it.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), orphanTimeout)
		defer cancel()
		n.releaseQuietly(cctx, ks, token)
		return grant{}, err
	}
	return grant{ok: true, fence: fence}, nil
}

func parseGrant(res []any) (grant, int64, error) {
	if len(res) < 3 {
		return grant{}, 0, fmt.Errorf("safelock: unexpected acquire reply %v", res)
	}
	ok, _ := res[0].(int64)
	v, _ := res[1].(int64)
	version, _ := res[2].(int64)
	if ok == 1 {
		return grant{ok: true, fence: v}, version, nil
	}
	g := grant{pttl: time.Duration(v) * time.Millisecond}
	if len(res) > 3 {
		g.floor, _ = res[3].(int64)
	}
	if len(res) > 4 {
		g.ahead, _ = res[4].(int64)
		g.ahead = max(g.ahead, 0)
	}
	return g, version, nil
}

// learn records, from the version the acquire script reported, whether the
// server has DELEX IFEQ and SET IFEQ (Redis 8.4, 0x080400). Without a
// version (servers before 7.0, miniredis) the first release and renew find
// out by trying.
func (n *node) learn(version int64) {
	if version == 0 {
		return
	}
	has := unsupported
	if version >= 0x080400 {
		has = supported
	}
	n.setIfeq.CompareAndSwap(unknown, has)
}

// runAndWait runs s and WAIT in one pipeline on the connection of the
// node that owns the key, so WAIT counts the replicas that have the lock.
// It returns the script's reply and the number of replicas that
// acknowledged.
func (n *node) runAndWait(ctx context.Context, s *redis.Script, keys []string, args []any, replicas int, timeout time.Duration) (*redis.Cmd, int64, error) {
	p, err := n.pipeline(ctx, keys[0])
	if err != nil {
		return nil, 0, err
	}
	run := func(eval bool) (*redis.Cmd, *redis.Cmd) {
		var sc *redis.Cmd
		if eval {
			sc = p.Eval(ctx, scriptSource[s], keys, args...)
		} else {
			sc = p.EvalSha(ctx, s.Hash(), keys, args...)
		}
		w := p.Do(ctx, "WAIT", replicas, timeout.Milliseconds())
		_, _ = p.Exec(ctx)
		return sc, w
	}
	sc, w := run(false)
	if redis.HasErrorPrefix(sc.Err(), "NOSCRIPT") {
		sc, w = run(true)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	acks, err := w.Int64()
	if err != nil {
		return nil, 0, fmt.Errorf("safelock: WAIT: %w", err)
	}
	return sc, acks, nil
}

// pipeline returns a pipeline on the connection that serves key: on a
// cluster, the primary of its slot, so that keyless commands (WAIT,
// PUBLISH) go to the same server.
func (n *node) pipeline(ctx context.Context, key string) (redis.Pipeliner, error) {
	if cc, ok := n.c.(*redis.ClusterClient); ok {
		m, err := cc.MasterForKey(ctx, key)
		if err != nil {
			return nil, err
		}
		return m.Pipeline(), nil
	}
	return n.c.Pipeline(), nil
}

var scriptSource = map[*redis.Script]string{
	acquireScript: AcquireScript,
	queueAcquire:  queueAcquireScript,
	renewScript:   RenewScript,
}

// release deletes the lock if it holds token; on a queued lock (one
// deployment) it hands the lock to the first waiter instead, and returns
// the handoff's message ("token=fence..."). fence is the lease's fence on
// this node (0 when unknown): a release that finds the key gone but the
// counter still at fence reports success (nobody took the lock since).
// here is the releasing Locker's own channel ("" when it has none): a
// handoff to a waiter listening there is not published (see queueLua).
func (n *node) release(ctx context.Context, ks *keySet, token string, fence int64, queue bool, here string) (ok bool, handed string, err error) {
	if queue {
		args := make([]any, 2, 3)
		args[0], args[1] = token, fence
		if here != "" {
			args = append(args, here)
		}
		v, err := queueRelease.Run(ctx, n.c, ks.queued[:], args...).Result()
		if err != nil {
			return false, "", err
		}
		switch v := v.(type) {
		case string:
			return true, v, nil
		case int64:
			return v == 1, "", nil
		}
		return false, "", fmt.Errorf("safelock: unexpected release reply %v", v)
	}
	args := []any{token, ks.channel}
	if fence > 0 {
		args = append(args, fence)
	}
	v, err := leaseRelease.Run(ctx, n.c, []string{ks.lock, ks.fence, ks.waiting, ks.waiters}, args...).Int()
	return v == 1, "", err
}

func (n *node) renew(ctx context.Context, ks *keySet, token string, ttl time.Duration, o *options) (bool, error) {
	if o.replicas > 0 {
		return n.renewAndWait(ctx, ks, token, ttl, o)
	}
	if n.setIfeq.Load() != unsupported {
		err := n.c.SetIFEQ(ctx, ks.lock, token, token, ttl).Err()
		switch {
		case err == nil:
			n.setIfeq.Store(supported)
			return true, nil
		case errors.Is(err, redis.Nil):
			n.setIfeq.Store(supported)
			return false, nil
		case !isUnsupported(err):
			return false, err
		}
		n.setIfeq.Store(unsupported)
	}
	v, err := renewScript.Run(ctx, n.c, []string{ks.lock}, token, ttl.Milliseconds()).Int()
	return v == 1, err
}

// renewAndWait renews and sends WAIT in the same round trip. When fewer
// replicas than asked acknowledge, the new ttl may not have reached them:
// a replica promoted now would expire the key at the old time. The renew
// then fails with ErrReplicaAck, so that the lease keeps its old deadline.
func (n *node) renewAndWait(ctx context.Context, ks *keySet, token string, ttl time.Duration, o *options) (bool, error) {
	cmd, acks, err := n.runAndWait(ctx, renewScript, []string{ks.lock}, []any{token, ttl.Milliseconds()}, o.replicas, o.replicaTimeout)
	if err != nil {
		return false, err
	}
	v, err := cmd.Int()
	if err != nil || v != 1 {
		return false, err
	}
	if acks < int64(o.replicas) {
		return false, fmt.Errorf("%w: %d of %d replicas acknowledged the renew of %q within %v",
			ErrReplicaAck, acks, o.replicas, ks.lock, o.replicaTimeout)
	}
	return true, nil
}

// leaveQueue takes a fair waiter that gave up out of the queue, and
// passes the lock on if a release handed it to this waiter meanwhile.
func (n *node) leaveQueue(ctx context.Context, ks *keySet, token string) error {
	return leaveQueue.Run(ctx, n.c, ks.queued[:4], token).Err()
}

func (n *node) raiseFence(ctx context.Context, ks *keySet, fence int64) error {
	return raiseFence.Run(ctx, n.c, []string{ks.fence}, fence).Err()
}

// isUnsupported reports whether the server rejected a command it does not
// know (Redis before 8.4: unknown DELEX, syntax error for SET ... IFEQ).
func isUnsupported(err error) bool {
	var re redis.Error
	if !errors.As(err, &re) {
		return false
	}
	msg := strings.ToLower(re.Error())
	return strings.Contains(msg, "unknown command") || strings.Contains(msg, "syntax error")
}

// releaseQuietly deletes key if it still holds token and wakes nobody:
// for giving back the nodes of a Redlock attempt that fell short of a
// quorum. The release that woke the attempt has told its waiter already;
// waking another would only start a race with it.
func (n *node) releaseQuietly(ctx context.Context, ks *keySet, token string) {
	_ = releaseScript.Run(ctx, n.c, []string{ks.lock}, token).Err()
}

// leaveWaiters removes a waiter that gave up from the waiting set, so
// that no release wakes it in place of another.
func (n *node) leaveWaiters(ctx context.Context, ks *keySet, token string) error {
	return n.c.ZRem(ctx, ks.waiters, token).Err()
}
