package adapters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bsm/redislock"
	"github.com/locklint/locklint/internal/bench"
)

// Redislock adapts bsm/redislock. It does not retry by default; Acquire uses
// LinearBackoff at the same poll interval as the naive loop so that the two
// differ only in what they send.
var Redislock = bench.Factory{
	Name:  "redislock",
	About: "bsm/redislock: Lua obtain/refresh/release, linear 5 ms retry",
	New: func(t *bench.Target) (bench.Locker, error) {
		if len(t.Clients) != 1 {
			return nil, fmt.Errorf("redislock: %w on several independent nodes", bench.ErrUnsupported)
		}
		return &bsmLocker{c: redislock.New(t.Client())}, nil
	},
}

type bsmLocker struct{ c *redislock.Client }

func (b *bsmLocker) Name() string { return "redislock" }
func (b *bsmLocker) Close() error { return nil }

func (b *bsmLocker) TryAcquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	return b.obtain(ctx, key, ttl, nil)
}

func (b *bsmLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	return b.obtain(ctx, key, ttl, &redislock.Options{RetryStrategy: redislock.LinearBackoff(pollInterval)})
}

func (b *bsmLocker) obtain(ctx context.Context, key string, ttl time.Duration, opt *redislock.Options) (bench.Lease, error) {
	l, err := b.c.Obtain(ctx, key, ttl, opt)
	switch {
	case errors.Is(err, redislock.ErrNotObtained):
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, bench.ErrNotAcquired
	case err != nil:
		return nil, err
	}
	return bsmLease{l}, nil
}

type bsmLease struct{ l *redislock.Lock }

func (l bsmLease) Release(ctx context.Context) error {
	err := l.l.Release(ctx)
	if errors.Is(err, redislock.ErrLockNotHeld) {
		return errors.Join(bench.ErrLeaseLost, err)
	}
	return err
}

func (l bsmLease) Renew(ctx context.Context, ttl time.Duration) error {
	err := l.l.Refresh(ctx, ttl, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return errors.Join(bench.ErrLeaseLost, err)
	}
	return err
}

func (l bsmLease) Fence() int64 { return 0 }
