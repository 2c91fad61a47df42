// Package locker wraps lock acquires for the rest of the project.
package locker

import (
	"context"
	"time"

	"github.com/locklint/locklint/safelock"
	"github.com/redis/go-redis/v9"
)

type Locker struct {
	rdb *redis.Client
	sl  *safelock.Locker
}

func (l *Locker) TryLock(ctx context.Context, key, token string) (bool, error) { // want TryLock:"returns the outcome of SetNX at locker.go:18"
	return l.rdb.SetNX(ctx, key, token, 30*time.Second).Result()
}

func (l *Locker) Unlock(ctx context.Context, key string) error {
	return l.rdb.Del(ctx, key).Err()
}

// Acquired is a wrapper of a wrapper.
func (l *Locker) Acquired(ctx context.Context, key, token string) (bool, error) { // want Acquired:"returns the outcome of Locker.TryLock"
	return l.TryLock(ctx, key, token)
}

func (l *Locker) Lease(ctx context.Context, key string) (*safelock.Lease, error) { // want Lease:"returns the outcome of safelock Locker.TryAcquire at locker.go:31"
	return l.sl.TryAcquire(ctx, key, time.Minute)
}

// The bool is lost inside the wrapper itself.
func (l *Locker) Lock(ctx context.Context, key, token string) error {
	return l.rdb.SetNX(ctx, key, token, 30*time.Second).Err() // want `only the error of SetNX of key is checked`
}
