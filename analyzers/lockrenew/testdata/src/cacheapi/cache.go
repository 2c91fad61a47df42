// Package cacheapi is a cache client that also hands out leases: its
// methods take the key as a parameter, so only their names say which
// ones belong to the lease.
package cacheapi

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ rdb *redis.Client }

func (c *Cache) AcquireLease(ctx context.Context, key string) bool {
	ok, _ := c.rdb.SetNX(ctx, key, true, 30*time.Minute).Result()
	return ok
}

func (c *Cache) ReleaseLease(ctx context.Context, key string) {
	c.rdb.Del(ctx, key)
}

// RenewLease names the lease: it renews whatever lease is held on key,
// the next holder's too.
func (c *Cache) RenewLease(ctx context.Context, key string) error {
	return c.rdb.Expire(ctx, key, 30*time.Minute).Err() // want `lock key is renewed with EXPIRE without checking`
}

// ExtendTTL is the cache's own: it keeps data keys alive, and extend
// alone does not say it is given the lease's key.
func (c *Cache) ExtendTTL(ctx context.Context, key string, ttl time.Duration) error {
	return c.rdb.Expire(ctx, key, ttl).Err()
}
