// Package syntax does not parse.
package syntax

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

func lock(ctx context.Context, key string) {
	rdb.SetNX(ctx, key, "1", time.Second
	rdb.Expire(ctx, key, )
	rdb.Get(ctx, key
}

func unlock(ctx context.Context, key string {
	rdb.Eval(ctx, "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end", []string{key}, "1")
}
