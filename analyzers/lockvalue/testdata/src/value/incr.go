package value

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A lock taken with INCR: the first caller sees 1, and the key holds a
// count, the same for every holder.
func incrLock(ctx context.Context, rdb *redis.Client, job string) bool {
	key := "lock:job:" + job
	n, err := rdb.Incr(ctx, key).Result() // want `lock key is taken with INCR, so its value is a counter, which cannot tell one holder from another`
	if err != nil || n > 1 {
		return false
	}
	rdb.Expire(ctx, key, time.Minute)
	return true
}

func incrUnlock(ctx context.Context, rdb *redis.Client, job string) {
	rdb.Del(ctx, "lock:job:"+job)
}

// A counter compared with a limit is no lock: nothing to say of its value.
func allowed(ctx context.Context, rdb *redis.Client, user string) bool {
	n, err := rdb.Incr(ctx, "rate:"+user).Result()
	if err != nil {
		return false
	}
	if n == 1 {
		rdb.Expire(ctx, "rate:"+user, time.Minute)
	}
	return n <= 10
}
