// Package stock keeps a ticket tier's stock in Redis: seeded once with
// SET NX from the database, reserved and released by scripts that also
// refresh its TTL. Releasing stock is no lock release, and refreshing a
// counter's TTL is no renewal.
package stock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var releaseStock = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCRBY', KEYS[1], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return 1`)

type core struct{ rdb *redis.Client }

func (c *core) stockKey(tier int64) string { return "tickets:stock:" + string(rune(tier)) }

func (c *core) ensureStockCached(ctx context.Context, tier int64, remain int64) error {
	return c.rdb.SetNX(ctx, c.stockKey(tier), remain, time.Hour).Err()
}

func (c *core) releaseInventory(ctx context.Context, tier int64, qty int) error {
	return releaseStock.Run(ctx, c.rdb, []string{c.stockKey(tier)}, qty, 3600).Err()
}

// A job's lease: taken with NX, renewed by a function named for it with
// an EXPIRE that checks no owner.
func (c *core) takeLease(ctx context.Context, job string, token string) (bool, error) {
	return c.rdb.SetNX(ctx, "jobs:"+job, token, 30*time.Second).Result()
}

func (c *core) renewLease(ctx context.Context, job string) error {
	return c.rdb.Expire(ctx, "jobs:"+job, 30*time.Second).Err() // want `renewed with EXPIRE without checking`
}
