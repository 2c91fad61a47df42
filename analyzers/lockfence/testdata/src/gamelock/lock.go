// Package gamelock declares its lock API as an interface beside its only
// implementation.
package gamelock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Lock interface {
	WithLock(ctx context.Context, key string, ttl time.Duration, fn func() error) error
}

type RedisLock struct{ rdb *redis.Client }

func New(rdb *redis.Client) Lock { return &RedisLock{rdb: rdb} }

func (l *RedisLock) WithLock(ctx context.Context, key string, ttl time.Duration, fn func() error) error {
	ok, err := l.rdb.SetNX(ctx, "lock:"+key, "1", ttl).Result()
	if err != nil || !ok {
		return err
	}
	defer l.rdb.Del(ctx, "lock:"+key)
	return fn()
}
