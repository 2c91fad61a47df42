package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is the project's own interface in front of the client.
type Store interface {
	Acquire(ctx context.Context, key, token string, ttl time.Duration) bool
	Extend(ctx context.Context, key string, ttl time.Duration) error
	Release(ctx context.Context, key, token string) error
}

type redisStore struct{ rdb redis.UniversalClient }

func (s *redisStore) Acquire(ctx context.Context, key, token string, ttl time.Duration) bool {
	return s.rdb.SetNX(ctx, key, token, ttl).Val()
}

func (s *redisStore) Extend(ctx context.Context, key string, ttl time.Duration) error {
	return s.rdb.PExpire(ctx, key, ttl).Err() // want `lock "job:" \+ id is renewed with PEXPIRE without checking`
}

const release = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

func (s *redisStore) Release(ctx context.Context, key, token string) error {
	return s.rdb.Eval(ctx, release, []string{key}, token).Err()
}
