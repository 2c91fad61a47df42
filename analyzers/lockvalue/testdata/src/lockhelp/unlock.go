package lockhelp

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Unlock(ctx context.Context, rdb redis.Cmdable, key string) {
	rdb.Del(ctx, key)
}
