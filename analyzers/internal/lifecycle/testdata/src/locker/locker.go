package locker // want package:"uses redis"

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

func Lock(ctx context.Context, key string) bool { // want Lock:`acquire \$p1\$ without ttl`
	return rdb.SetNX(ctx, key, "1", 0).Val()
}

func Unlock(ctx context.Context, key string) { // want Unlock:`delete \$p1\$`
	rdb.Del(ctx, key)
}

// A client wrapper's Incr returns the count; what it means is the
// caller's to decide.
func Incr(ctx context.Context, key string) (int64, error) { // want Incr:`returns INCR \$p1\$`
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return -1, err
	}
	trace("incr", n)
	return n, nil
}

func trace(string, int64) {}

// Requeue and Handle call each other (a worker that enqueues a failed
// task again): each fact lists the DEL once and settles.
func Requeue(ctx context.Context, key string) { // want Requeue:`^delete \$p1\$$`
	Handle(ctx, key)
}

func Handle(ctx context.Context, key string) { // want Handle:`^delete \$p1\$$`
	rdb.Del(ctx, key)
	if ctx.Err() != nil {
		Requeue(ctx, key)
	}
}
