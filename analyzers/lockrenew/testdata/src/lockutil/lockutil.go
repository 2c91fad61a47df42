// Package lockutil is a helper package whose functions say nothing about
// locks: the caller's package joins them into a lifecycle.
package lockutil

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func Acquire(ctx context.Context, rdb redis.Cmdable, key, token string, ttl time.Duration) bool {
	return rdb.SetNX(ctx, key, token, ttl).Val()
}

func Touch(ctx context.Context, rdb redis.Cmdable, key string, ttl time.Duration) error {
	return rdb.Expire(ctx, key, ttl).Err()
}

const renewSrc = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`

func Renew(ctx context.Context, rdb redis.Cmdable, key, token string, ttl time.Duration) error {
	return rdb.Eval(ctx, renewSrc, []string{key}, token, ttl.Milliseconds()).Err()
}
