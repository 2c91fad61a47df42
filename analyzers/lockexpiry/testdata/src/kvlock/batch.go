package kvlock

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

const lockKeyPrefix = "fs:lock:"

// LockKeys hands the keys it took back in a slice; UnlockKeys deletes
// them. The release cannot be followed, but key and function name a lock.
func LockKeys(ctx context.Context, rdb *redis.Client, keys []string) []string {
	var taken []string
	for _, k := range keys {
		lockKey := fmt.Sprintf("%s%s", lockKeyPrefix, k)
		ok, err := rdb.SetNX(ctx, lockKey, "1", 0).Result() // want `lock lockKey is acquired with SET NX without a TTL`
		if err != nil || !ok {
			continue
		}
		taken = append(taken, lockKey)
	}
	return taken
}

func UnlockKeys(ctx context.Context, rdb *redis.Client, keys []string) {
	for _, k := range keys {
		rdb.Del(ctx, k)
	}
}

// MarkInstalled records, once and for good, that a migration ran: no
// lock in its names, never released.
func MarkInstalled(ctx context.Context, rdb *redis.Client, name string) bool {
	ok, _ := rdb.SetNX(ctx, "installed:"+name, "1", 0).Result()
	return ok
}

// LockHint names a lock but never reads whether it won: a marker.
func LockHint(ctx context.Context, rdb *redis.Client, name string) {
	rdb.SetNX(ctx, "lock:hint:"+name, "1", 0)
}
