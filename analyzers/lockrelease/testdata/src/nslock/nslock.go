// Package nslock is a store like nscache whose own lock API is wrong: Lock
// stores a constant and Unlock deletes without an owner check. Unlock is
// reported once, at its DEL; Del, serving every key through the same
// namespace helper, is not.
package nslock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	rdb    = redis.NewClient(&redis.Options{})
	ctx    = context.Background()
	prefix = "svc"
)

func key(k string) string { return prefix + ":" + k }

func Store(k string, v any, ttl time.Duration) error {
	return rdb.Set(ctx, key(k), v, ttl).Err()
}

func Del(k string) error { return rdb.Del(ctx, key(k)).Err() }

func Lock(k string, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, key(k), "1", ttl).Result()
}

func Unlock(k string) error {
	return rdb.Del(ctx, key(k)).Err() // want `without checking that this holder still owns it`
}
