// Package locker is a helper package used by other packages; its helpers
// pass key and token through, so what they mean depends on the caller.
package locker

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Acquire(ctx context.Context, rdb redis.Cmdable, key, token string) bool {
	return rdb.SetNX(ctx, key, token, 0).Val()
}

func Release(ctx context.Context, rdb redis.Cmdable, key string) {
	rdb.Del(ctx, key)
}
