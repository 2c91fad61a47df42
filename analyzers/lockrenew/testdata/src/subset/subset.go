// Package subset writes its lock against its own interface: a subset of
// go-redis's methods with go-redis's result types, which any go-redis
// client satisfies.
package subset

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type RedisClient interface {
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.BoolCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *redis.BoolCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

type Lock struct {
	rdb   RedisClient
	key   string
	token string
}

func (l *Lock) TryLock(ctx context.Context) bool {
	return l.rdb.SetNX(ctx, l.key, l.token, 10*time.Second).Val()
}

func (l *Lock) watchdog(ctx context.Context) {
	for range time.Tick(3 * time.Second) {
		l.rdb.Expire(ctx, l.key, 10*time.Second) // want `lock l.key is renewed with EXPIRE without checking that this holder still owns it`
	}
}

// KV has the same method names but its own results: nothing says which
// store is behind it, so it is not read as Redis.
type KV interface {
	SetNX(ctx context.Context, key string, value interface{}, ttl time.Duration) (bool, error)
	Expire(ctx context.Context, key string, ttl time.Duration) error
}

type Guard struct {
	kv    KV
	key   string
	token string
}

func (g *Guard) TryLock(ctx context.Context) bool {
	ok, err := g.kv.SetNX(ctx, g.key, g.token, 10*time.Second)
	return err == nil && ok
}

func (g *Guard) keepAlive(ctx context.Context) {
	for range time.Tick(3 * time.Second) {
		_ = g.kv.Expire(ctx, g.key, 10*time.Second)
	}
}
