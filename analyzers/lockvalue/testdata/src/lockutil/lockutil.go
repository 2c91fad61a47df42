// Package lockutil wraps the client; the value comes from its callers.
package lockutil

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func Acquire(ctx context.Context, rdb redis.Cmdable, key string, value interface{}, ttl time.Duration) bool {
	return rdb.SetNX(ctx, key, value, ttl).Val()
}

func Release(ctx context.Context, rdb redis.Cmdable, key string) {
	rdb.Del(ctx, key)
}

const ownerName = "worker"

func Owner() string { return ownerName } // want Owner:`weak value: result 0 is the constant "worker"`
