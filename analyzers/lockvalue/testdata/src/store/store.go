package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is the project's own interface in front of the client.
type Store interface {
	Acquire(ctx context.Context, key string, value interface{}, ttl time.Duration) bool
	Release(ctx context.Context, key string)
}

type redisStore struct{ rdb redis.UniversalClient }

func (s *redisStore) Acquire(ctx context.Context, key string, value interface{}, ttl time.Duration) bool {
	return s.rdb.SetNX(ctx, key, value, ttl).Val()
}

func (s *redisStore) Release(ctx context.Context, key string) {
	s.rdb.Del(ctx, key)
}
