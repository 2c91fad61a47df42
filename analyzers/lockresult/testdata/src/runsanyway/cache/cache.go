// Package cache hides its Redis client behind an interface that one type
// implements, as real services do.
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache interface {
	Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) // want Lock:"returns the outcome of SetNX at cache.go:25"
	Unlock(ctx context.Context, key string) error
	SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error) // want SetNX:"returns the outcome of SetNX at cache.go:33"
	Set(ctx context.Context, key, value string, ttl time.Duration) error
	Delete(ctx context.Context, key string) error
}

type redisCache struct{ rdb *redis.Client }

func New(rdb *redis.Client) Cache { return &redisCache{rdb: rdb} }

func (c *redisCache) Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) { // want Lock:"returns the outcome of SetNX at cache.go:25"
	return c.rdb.SetNX(ctx, "lock:"+key, "1", ttl).Result()
}

func (c *redisCache) Unlock(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, "lock:"+key).Err()
}

func (c *redisCache) SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error) { // want SetNX:"returns the outcome of SetNX at cache.go:33"
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (c *redisCache) Set(ctx context.Context, key, value string, ttl time.Duration) error {
	return c.rdb.Set(ctx, key, value, ttl).Err()
}

func (c *redisCache) Delete(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, key).Err()
}
