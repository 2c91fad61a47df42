package fence

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const cacheShopKey = "cache:shop:"

// A mutex around a cache rebuild: the cached copy has a TTL and the store
// of record is the database, so the fill is no protected write.
func rebuildShop(ctx context.Context, rdb *redis.Client, id string, load func() string) {
	lockKey := "lock:shop:" + id
	if !rdb.SetNX(ctx, lockKey, "1", 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, lockKey)
	key := cacheShopKey + id
	rdb.SetEx(ctx, key, load(), time.Minute)
	rdb.Set(ctx, "shop:state:"+id, "rebuilt", time.Minute) // want `Redis SET under lock lockKey \(SET NX\) carries no fencing token`
}
