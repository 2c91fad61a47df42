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
	ok, err := rdb.SetNX(ctx, key, 1, ttl).Result() // want `when SetNX fails \(Redis unreachable, a timeout\), AcquireLock returns a nil error, its answer for a lock it holds \(a refused lock returns an error\)`
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

// A blocking acquire: a refusal waits and tries again, so a nil error
// means "held"; on a Redis error it degrades to a no-op release.
func Lock(ctx context.Context, key, token string) (func(), error) {
	for {
		ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result() // want `when SetNX fails \(Redis unreachable, a timeout\), Lock returns a nil error, its answer for a lock it holds \(a refused lock is waited for\)`
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return func() {}, nil
		}
		if ok {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return func() { rdb.Del(context.Background(), key) }, nil
}

// Near miss: the error goes back to the caller of the blocking acquire.
func LockStrict(ctx context.Context, key, token string) (func(), error) {
	for {
		ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
		if err != nil {
			return nil, err
		}
		if ok {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return func() { rdb.Del(context.Background(), key) }, nil
}

// Near miss: the loop gives up after a few tries and answers "not held"
// with a nil handle and a nil error, as it does on a Redis error: the
// handle, not the error, says whether the lock is held.
func LockFewTimes(ctx context.Context, key, token string) (func(), error) {
	for i := 0; ; i++ {
		ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
		if err != nil {
			return nil, nil
		}
		if ok {
			break
		}
		if i == 3 {
			return nil, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return func() { rdb.Del(context.Background(), key) }, nil
}

// Near miss: each try first gives up with a nil error once ctx is done,
// so a nil error does not always mean "held".
func LockUntilDone(ctx context.Context, key, token string) (func(), error) {
	for {
		if ctx.Err() != nil {
			return nil, nil
		}
		ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
		if err != nil {
			return func() {}, nil
		}
		if ok {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return func() { rdb.Del(context.Background(), key) }, nil
}
