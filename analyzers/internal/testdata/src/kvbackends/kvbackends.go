// Package kvbackends declares a cache interface with a go-redis
// implementation and an in-process stand-in, as many applications do
// (the memory one for tests and single-node runs). Its importers call
// the interface; what it does on Redis is what the go-redis one does.
package kvbackends

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Del(ctx context.Context, keys ...string) error
}

type redisCache struct{ rdb *redis.Client }

func NewRedis(rdb *redis.Client) Cache { return &redisCache{rdb: rdb} }

func (r *redisCache) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return r.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (r *redisCache) Del(ctx context.Context, keys ...string) error {
	return r.rdb.Del(ctx, keys...).Err()
}

type memoryCache struct {
	mu   sync.Mutex
	data map[string]any
}

func NewMemory() Cache { return &memoryCache{data: map[string]any{}} }

func (m *memoryCache) SetNX(_ context.Context, key string, value any, _ time.Duration) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.data[key]; ok {
		return false, nil
	}
	m.data[key] = value
	return true, nil
}

func (m *memoryCache) Del(_ context.Context, keys ...string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		delete(m.data, k)
	}
	return nil
}

// Tiers has two Redis implementations that differ: a call through it
// may be either, so it stays unknown.
type Tiers interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Del(ctx context.Context, key string) error
}

type plainTier struct{ rdb *redis.Client }

func (p *plainTier) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return p.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (p *plainTier) Del(ctx context.Context, key string) error { return p.rdb.Del(ctx, key).Err() }

type checkedTier struct {
	rdb   *redis.Client
	token string
}

var releaseScript = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

func (c *checkedTier) SetNX(ctx context.Context, key string, _ any, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, c.token, ttl).Result()
}

func (c *checkedTier) Del(ctx context.Context, key string) error {
	return releaseScript.Run(ctx, c.rdb, []string{key}, c.token).Err()
}

func NewTiers(rdb *redis.Client, token string) (Tiers, Tiers) {
	return &plainTier{rdb: rdb}, &checkedTier{rdb: rdb, token: token}
}

// Sessions has a go-redis implementation and a memory one too; its
// users keep sessions, not locks.
type Sessions interface {
	Put(ctx context.Context, id string, v any) error
	Drop(ctx context.Context, id string) error
}

type redisSessions struct{ rdb *redis.Client }

func (r *redisSessions) Put(ctx context.Context, id string, v any) error {
	return r.rdb.Set(ctx, "session:"+id, v, time.Hour).Err()
}

func (r *redisSessions) Drop(ctx context.Context, id string) error {
	return r.rdb.Del(ctx, "session:"+id).Err()
}

type memorySessions struct{ m sync.Map }

func (s *memorySessions) Put(_ context.Context, id string, v any) error {
	s.m.Store(id, v)
	return nil
}

func (s *memorySessions) Drop(_ context.Context, id string) error {
	s.m.Delete(id)
	return nil
}

func NewSessions(rdb *redis.Client) (Sessions, Sessions) {
	return &redisSessions{rdb: rdb}, &memorySessions{}
}
