// Package idempotent is named for the records it keeps: a lock word in a
// type's name (Guard) does not make its NX markers locks; a method named
// as taking a lock still does.
package idempotent

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Guard runs work once per key.
type Guard struct {
	client *redis.Client
	prefix string
}

// Data: Check marks the key processed; Clear drops the mark for a retry.
func (g *Guard) Check(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	fullKey := g.prefix + key
	return g.client.SetNX(ctx, fullKey, "1", ttl).Result() // want `data`
}

func (g *Guard) Clear(ctx context.Context, key string) error {
	fullKey := g.prefix + key
	return g.client.Del(ctx, fullKey).Err()
}

// InFlight keeps concurrent requests with one idempotency key apart.
type InFlight struct{ client *redis.Client }

// Lock: named as taking and giving back a lock, in the same package.
func (f *InFlight) AcquireLock(ctx context.Context, key string) (bool, error) {
	return f.client.SetNX(ctx, "inflight:"+key, "1", time.Minute).Result() // want `lock`
}

func (f *InFlight) ReleaseLock(ctx context.Context, key string) error {
	return f.client.Del(ctx, "inflight:"+key).Err()
}
