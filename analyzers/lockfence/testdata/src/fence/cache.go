package fence

import (
	"context"
	"fmt"
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

// One lock family orders the database write and the cache fill: the
// fill is a protected write (a stale fill lands after the update's
// invalidation and stays, with no TTL).
func updateOrderName(ctx context.Context, id, name string) error {
	mu := rs.NewMutex(fmt.Sprintf("mutex:db:order:%s", id))
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	defer mu.UnlockContext(ctx)
	_, err := db.ExecContext(ctx, "UPDATE orders SET name = ? WHERE id = ?", name, id) // want `database/sql DB.ExecContext under lock`
	return err
}

func loadOrderName(ctx context.Context, id string) error {
	mu := rs.NewMutex(fmt.Sprintf("mutex:db:order:%s", id))
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	defer mu.UnlockContext(ctx)
	var name string
	if err := db.QueryRowContext(ctx, "SELECT name FROM orders WHERE id = ?", id).Scan(&name); err != nil {
		return err
	}
	return putOrderNameCache(ctx, id, name)
}

func putOrderNameCache(ctx context.Context, id, name string) error {
	return rdb.HSet(ctx, "order_names", id, name).Err() // want `Redis HSET under lock`
}

// Near miss: a lock that only serialises cache fills guards no store.
func loadShopName(ctx context.Context, id string) error {
	mu := rs.NewMutex(fmt.Sprintf("mutex:fill:shop:%s", id))
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	defer mu.UnlockContext(ctx)
	var name string
	if err := db.QueryRowContext(ctx, "SELECT name FROM shops WHERE id = ?", id).Scan(&name); err != nil {
		return err
	}
	return putShopNameCache(ctx, id, name)
}

func putShopNameCache(ctx context.Context, id, name string) error {
	return rdb.HSet(ctx, "shop_names", id, name).Err()
}

type ocrService struct {
	rdb         *redis.Client
	ocrCacheTTL time.Duration
	resultTTL   time.Duration
}

// A key held in a variable named as a cache, or set with a TTL named as a
// cache's, is a cache fill even when its text says nothing of a cache.
func (s *ocrService) process(ctx context.Context, id, hash string, read func() string) {
	lockKey := "lock:quiz:" + id
	if !s.rdb.SetNX(ctx, lockKey, "1", 10*time.Minute).Val() {
		return
	}
	defer s.rdb.Del(ctx, lockKey)
	cacheKey := "ocr:" + hash
	txt := read()
	s.rdb.Set(ctx, cacheKey, txt, time.Hour)
	s.rdb.Set(ctx, "ocr:text:"+hash, txt, s.ocrCacheTTL)
	// Near miss: neither the key nor the TTL says cache.
	resultKey := "ocr:result:" + id
	s.rdb.Set(ctx, resultKey, txt, s.resultTTL) // want `Redis SET under lock lockKey \(SET NX\) carries no fencing token`
}
