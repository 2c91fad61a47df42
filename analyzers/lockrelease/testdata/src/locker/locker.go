// Package locker is a helper package; its names say nothing about what
// the keys are for.
package locker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb redis.UniversalClient }

func (s *Store) Put(ctx context.Context, key, val string) bool {
	return s.rdb.SetNX(ctx, key, val, time.Minute).Val()
}

func (s *Store) Drop(ctx context.Context, key string) {
	s.rdb.Del(ctx, key)
}

// RedisLock is a lock API with the key as a parameter and a token made
// inside: its release is reported here, once, not at every caller.
type RedisLock struct{ rdb *redis.Client }

func (r *RedisLock) TryLock(ctx context.Context, key string) bool {
	return r.rdb.SetNX(ctx, key, "locked", 10*time.Second).Val()
}

func (r *RedisLock) Unlock(ctx context.Context, key string) {
	r.rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking`
}

// Client is a thin wrapper of the client: SetNX with a value of its own
// and Del are not a lock API by themselves; callers decide.
type Client struct{ rdb *redis.Client }

func (c *Client) SetNX(ctx context.Context, key string, ttl time.Duration) bool {
	return c.rdb.SetNX(ctx, key, 1, ttl).Val()
}

func (c *Client) Del(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, key).Err()
}
