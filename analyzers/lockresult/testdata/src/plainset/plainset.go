// Package plainset takes locks with SET commands that have no NX.
package plainset

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

type redisLock struct {
	key, value string
	ttl        time.Duration
}

// SETEX always succeeds: every caller is told it holds the lock.
func (l *redisLock) Acquire(ctx context.Context) (bool, error) {
	if err := rdb.SetEx(ctx, l.key, l.value, l.ttl).Err(); err != nil { // want `Acquire takes lock l.key with SET, which has no NX`
		return false, err
	}
	return true, nil
}

func (l *redisLock) Release(ctx context.Context) (bool, error) {
	n, err := release.Run(ctx, rdb, []string{l.key}, l.value).Int()
	return n == 1, err
}

type nxLock struct {
	key, value string
	ttl        time.Duration
}

// Near miss: SET NX answers whether the lock was free.
func (l *nxLock) Acquire(ctx context.Context) (bool, error) { // want Acquire:"returns the outcome of SetNX at plainset.go:40"
	return rdb.SetNX(ctx, l.key, l.value, l.ttl).Result()
}

func (l *nxLock) Release(ctx context.Context) (bool, error) {
	n, err := release.Run(ctx, rdb, []string{l.key}, l.value).Int()
	return n == 1, err
}

type accounts struct{}

// Near miss: an account lockout is a flag, set and cleared by anyone; no
// owner check gives it back.
func (accounts) LockAccount(ctx context.Context, id string) (bool, error) {
	if err := rdb.Set(ctx, "account:locked:"+id, 1, time.Hour).Err(); err != nil {
		return false, err
	}
	return true, nil
}

func (accounts) UnlockAccount(ctx context.Context, id string) error {
	return rdb.Del(ctx, "account:locked:"+id).Err()
}
