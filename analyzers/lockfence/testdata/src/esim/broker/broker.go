// Package broker implements the scheduler's ports over Redis.
package broker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type RedisBroker struct{ rdb *redis.Client }

func (b *RedisBroker) Lock(ctx context.Context, key string, ttl time.Duration) bool {
	ok, err := b.rdb.SetNX(ctx, key, "1", ttl).Result()
	return err == nil && ok
}

func (b *RedisBroker) Unlock(ctx context.Context, key string) { b.rdb.Del(ctx, key) }

// Two notifiers: one over Redis, one that only logs.
type RedisNotifier struct{ rdb *redis.Client }

func (n *RedisNotifier) TryLock(ctx context.Context, key string, ttl time.Duration) bool {
	ok, err := n.rdb.SetNX(ctx, key, "1", ttl).Result()
	return err == nil && ok
}

func (n *RedisNotifier) Release(ctx context.Context, key string) { n.rdb.Del(ctx, key) }
func (n *RedisNotifier) Notify(ctx context.Context, what string) {}

type LogNotifier struct{}

func (LogNotifier) TryLock(ctx context.Context, key string, ttl time.Duration) bool { return true }
func (LogNotifier) Release(ctx context.Context, key string)                         {}
func (LogNotifier) Notify(ctx context.Context, what string)                         {}

func New(rdb *redis.Client) *RedisBroker { return &RedisBroker{rdb: rdb} }
