// Package store puts its own interface in front of the client; the
// service code only sees the interface.
package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type KV interface {
	PutIfAbsent(ctx context.Context, key, value string, ttl time.Duration) (bool, error)
	Remove(ctx context.Context, key string) error
}

type redisKV struct{ rdb redis.UniversalClient }

func New(rdb redis.UniversalClient) KV { return &redisKV{rdb: rdb} }

func (s *redisKV) PutIfAbsent(ctx context.Context, key, value string, ttl time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (s *redisKV) Remove(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, key).Err()
}
