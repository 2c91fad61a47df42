// Package failopenerr wraps SET NX in acquires whose error says whether
// the lock is held: a refused lock returns an error, so callers take a
// nil error for "held".
package failopenerr

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

var errBusy = errors.New("resource is being processed")

// On a Redis error it degrades to a no-op unlock and a nil error: every
// caller runs its critical section unlocked.
func AcquireLock(ctx context.Context, key string, ttl time.Duration) (unlock func(), err error) {
	ok, err := rdb.SetNX(ctx, key, 1, ttl).Result() // want `when SetNX fails \(Redis unreachable, a timeout\), AcquireLock returns a nil error, its answer for a lock it holds`
	if err != nil {
		return func() {}, nil
	}
	if !ok {
		return func() {}, errBusy
	}
	return func() { rdb.Del(context.Background(), key) }, nil
}

// Near miss: the error goes back to the caller.
func AcquireLockStrict(ctx context.Context, key string, ttl time.Duration) (unlock func(), err error) {
	ok, err := rdb.SetNX(ctx, key, 1, ttl).Result()
	if err != nil {
		return func() {}, err
	}
	if !ok {
		return func() {}, errBusy
	}
	return func() { rdb.Del(context.Background(), key) }, nil
}

// Near miss: the handle, not the error, says whether the lock is held; a
// refusal and a Redis error both hand back none.
func TryLock(ctx context.Context, key string, ttl time.Duration) (unlock func(), err error) {
	ok, err := rdb.SetNX(ctx, key, 1, ttl).Result()
	if err != nil {
		return nil, nil
	}
	if !ok {
		return nil, nil
	}
	return func() { rdb.Del(context.Background(), key) }, nil
}
