package adapters

import (
	"context"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/locklint/locklint/internal/bench"
)

// Redsync adapts go-redsync/redsync v4 with its defaults (32 tries, 50-250
// ms random delay between them). With several independent nodes it runs
// Redlock across them. Renew is Mutex.Extend, which extends by the expiry
// the mutex was created with.
var Redsync = bench.Factory{
	Name:  "redsync",
	About: "go-redsync/redsync v4: SET NX PX per node, Lua release/extend, 50-250 ms retry",
	New: func(t *bench.Target) (bench.Locker, error) {
		pools := make([]redsyncredis.Pool, len(t.Clients))
		for i, c := range t.Clients {
			pools[i] = goredis.NewPool(c)
		}
		return &rsLocker{rs: redsync.New(pools...)}, nil
	},
}

type rsLocker struct{ rs *redsync.Redsync }

func (r *rsLocker) Name() string { return "redsync" }
func (r *rsLocker) Close() error { return nil }

func (r *rsLocker) TryAcquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	m := r.rs.NewMutex(key, redsync.WithExpiry(ttl), redsync.WithTries(1))
	if err := m.TryLockContext(ctx); err != nil {
		return nil, rsErr(ctx, err)
	}
	return &rsLease{m: m}, nil
}

func (r *rsLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	for {
		m := r.rs.NewMutex(key, redsync.WithExpiry(ttl))
		err := m.LockContext(ctx)
		if err == nil {
			return &rsLease{m: m}, nil
		}
		if err = rsErr(ctx, err); !errors.Is(err, bench.ErrNotAcquired) {
			return nil, err
		}
		// All tries used up: a user would call Lock again.
	}
}

// rsErr maps redsync's errors: it reports a done context as ErrFailed.
func rsErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var taken *redsync.ErrTaken
	var nodeTaken *redsync.ErrNodeTaken
	if errors.Is(err, redsync.ErrFailed) || errors.As(err, &taken) || errors.As(err, &nodeTaken) {
		return bench.ErrNotAcquired
	}
	return err
}

type rsLease struct{ m *redsync.Mutex }

func (l *rsLease) Release(ctx context.Context) error {
	ok, err := l.m.UnlockContext(ctx)
	if !ok {
		return errors.Join(bench.ErrLeaseLost, err)
	}
	return nil
}

func (l *rsLease) Renew(ctx context.Context, _ time.Duration) error {
	ok, err := l.m.ExtendContext(ctx)
	if !ok {
		return errors.Join(bench.ErrLeaseLost, err)
	}
	return nil
}

func (l *rsLease) Fence() int64 { return 0 }
