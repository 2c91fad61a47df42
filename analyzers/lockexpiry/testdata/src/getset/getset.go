// Package getset takes locks the old way, with GETSET: the lock is ours
// when the old value was empty, or was the expired stamp we read.
package getset

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

func claim(ctx context.Context, rdb *redis.Client, id string, work func() error) error {
	lockKey := "quota:" + id + "-lock"
	old, err := rdb.GetSet(ctx, lockKey, 1).Result() // want `acquired with GETSET and given its TTL by a separate EXPIRE`
	if err != nil && err != redis.Nil {
		return err
	}
	if old != "" {
		return errors.New("locked")
	}
	if err := rdb.Expire(ctx, lockKey, 5*time.Second).Err(); err != nil {
		return err
	}
	defer rdb.Del(ctx, lockKey)
	return work()
}

// The SETNX + GETSET recipe: SETNX a stamp with a TTL, else take over an
// expired stamp with GETSET (no TTL) and give it one afterwards.
func lock(ctx context.Context, rdb *redis.Client, key string, timeout time.Duration) (bool, error) {
	if rdb.SetNX(ctx, key, time.Now().Add(timeout).UnixNano(), timeout).Val() {
		return true, nil
	}
	expires, err := rdb.Get(ctx, key).Int64()
	if err != nil || time.Unix(0, expires).After(time.Now()) {
		return false, err
	}
	newTime, err := rdb.GetSet(ctx, key, time.Now().Add(timeout).UnixNano()).Int64() // want `acquired with GETSET and given its TTL by a separate EXPIRE`
	if err != nil || newTime != expires {
		return false, err
	}
	return true, rdb.Expire(ctx, key, timeout).Err()
}

func unlock(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}

// Near miss: GETSET swaps a counter out; the old value is data, not a
// verdict on who won.
func drain(ctx context.Context, rdb *redis.Client, total *int64) error {
	n, err := rdb.GetSet(ctx, "hits:lock-page", 0).Int64()
	if err != nil {
		return err
	}
	*total += n
	return rdb.Expire(ctx, "hits:lock-page", time.Hour).Err()
}
