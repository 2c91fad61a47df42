package adapters

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/locklint/locklint/safelock"
	"github.com/locklint/locklint/safelock/fence"
	"github.com/redis/go-redis/v9"
)

// Safelock adapts this project's safelock: one round trip to acquire (with
// the fencing token), owner-checked release and renew, waiters woken by
// pub/sub on release. With several independent nodes it is NewRedlock.
var Safelock = bench.Factory{
	Name:  "safelock",
	About: "locklint safelock: one-round-trip acquire with fence, owner-checked release/renew, release hands the lock to the next queued waiter",
	New: func(t *bench.Target) (bench.Locker, error) {
		return newSafelock("safelock", t)
	},
}

// SafelockFair is safelock WithFairness: waiters queue in Redis and the lock
// passes to the longest waiter.
var SafelockFair = bench.Factory{
	Name:  "safelock-fair",
	About: "safelock WithFairness: FIFO queue of waiters in Redis",
	New: func(t *bench.Target) (bench.Locker, error) {
		if len(t.Clients) > 1 {
			return nil, fmt.Errorf("safelock-fair: %w with Redlock (WithFairness needs one deployment)", bench.ErrUnsupported)
		}
		return newSafelock("safelock-fair", t, safelock.WithFairness())
	},
}

// SafelockReplicaAck is safelock WithReplicaAck(1, 1500ms): a grant (and a
// renew) counts only once a replica has it. The timeout is above the
// replica's once-a-second ACK, which a WAIT on Redis 7.0 now and then
// waits for. It needs a replica, so it is not in All: the safety lab puts
// it through failovers.
var SafelockReplicaAck = bench.Factory{
	Name:  "safelock-ack",
	About: "safelock WithReplicaAck(1, 1500ms): grants wait for one replica",
	New: func(t *bench.Target) (bench.Locker, error) {
		if len(t.Clients) > 1 {
			return nil, fmt.Errorf("safelock-ack: %w with Redlock", bench.ErrUnsupported)
		}
		return newSafelock("safelock-ack", t, safelock.WithReplicaAck(1, 1500*time.Millisecond))
	},
}

func newSafelock(name string, t *bench.Target, opts ...safelock.Option) (bench.Locker, error) {
	var l *safelock.Locker
	if len(t.Clients) > 1 {
		l = safelock.NewRedlock(append([]redis.UniversalClient(nil), t.Clients...), opts...)
	} else {
		l = safelock.New(t.Client(), opts...)
	}
	return &slLocker{name: name, l: l, resource: t.Client()}, nil
}

type slLocker struct {
	name     string
	l        *safelock.Locker
	resource redis.UniversalClient // where fenced writes land
}

// CheckerName and CheckedWrite make the safety workload's fenced resource a
// Redis value written through safelock/fence.SetRedis, the helper a user
// of safelock would call where the write lands.
func (s *slLocker) CheckerName() string {
	return "safelock/fence.SetRedis (Redis script: writes only if no grant with a higher fence wrote)"
}

func (s *slLocker) CheckedWrite(ctx context.Context, resource string, lease bench.Lease) (bool, error) {
	l, ok := lease.(slLease)
	if !ok {
		return false, fmt.Errorf("safelock fence check: lease of type %T", lease)
	}
	return fence.SetRedis(ctx, s.resource, resource, l.l, "written")
}

func (s *slLocker) Name() string { return s.name }
func (s *slLocker) Close() error { return s.l.Close() }

func (s *slLocker) TryAcquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	l, err := s.l.TryAcquire(ctx, key, ttl)
	if err != nil {
		return nil, slErr(err)
	}
	return slLease{l}, nil
}

func (s *slLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	l, err := s.l.Acquire(ctx, key, ttl)
	if err != nil {
		return nil, slErr(err)
	}
	return slLease{l}, nil
}

func slErr(err error) error {
	switch {
	case errors.Is(err, safelock.ErrNotAcquired):
		return errors.Join(bench.ErrNotAcquired, err)
	case errors.Is(err, safelock.ErrLeaseLost):
		return errors.Join(bench.ErrLeaseLost, err)
	case err != nil && strings.Contains(err.Error(), "leaves no validity"):
		// safelock has no sentinel for a grant that arrived expired.
		return errors.Join(bench.ErrNoValidity, err)
	}
	return err
}

type slLease struct{ l *safelock.Lease }

func (l slLease) Release(ctx context.Context) error { return slErr(l.l.Release(ctx)) }
func (l slLease) Renew(ctx context.Context, ttl time.Duration) error {
	return slErr(l.l.Renew(ctx, ttl))
}
func (l slLease) Fence() int64 { return l.l.Fence() }
