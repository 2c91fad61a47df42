// Package unitswrap wraps go-redis in methods that take a time.Duration
// and pass it on unchanged: a caller's bare number is nanoseconds there,
// as it would be at go-redis.
package unitswrap

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ c *redis.Client }

func (r *Cache) SetNX(ctx context.Context, key string, v any, expiration time.Duration) (bool, error) { // want SetNX:"passes on as a TTL: param 3 to SetNX"
	return r.c.SetNX(ctx, key, v, expiration).Result()
}

// A helper of a helper passes the fact on.
func (r *Cache) TryLock(ctx context.Context, key string, ttl time.Duration) bool { // want TryLock:"passes on as a TTL: param 2 to SetNX"
	ok, _ := r.SetNX(ctx, key, "1", ttl)
	return ok
}

// The wrapper counts seconds itself: a bare number is what it wants.
func (r *Cache) SetNXSeconds(ctx context.Context, key string, v any, seconds time.Duration) (bool, error) {
	return r.c.SetNX(ctx, key, v, seconds*time.Second).Result()
}

const orderLockTTL = 10

func cancelOrder(ctx context.Context, r *Cache, id string) {
	r.SetNX(ctx, "lock:order:"+id, "1", 30)        // want `SetNX passes this time.Duration on to SetNX \(unitswrap.go:\d+\), so TTL 30 is 30 nanoseconds: go-redis v9 sends PX 1`
	r.TryLock(ctx, "lock:order:"+id, orderLockTTL) // want `TryLock passes this time.Duration on to SetNX \(unitswrap.go:\d+\), so TTL orderLockTTL is 10 nanoseconds`
	r.SetNX(ctx, "lock:order:"+id, "1", 30*time.Second)
	r.SetNX(ctx, "lock:order:"+id, "1", 0) // no TTL: lockexpiry's business
	r.SetNXSeconds(ctx, "lock:order:"+id, "1", 30)
	r.TryLock(ctx, "lock:order:"+id, 2*time.Minute)
}
