// Package redis_lock is a stand-in for github.com/xiaoxuxiansheng/redis_lock:
// a lock object over its own redigo client, renewed by a watchdog unless
// WithExpireSeconds gives it a TTL.
package redis_lock

import (
	"context"
	"errors"

	"github.com/gomodule/redigo/redis"
)

var ErrLockAcquiredByOthers = errors.New("lock is acquired by others")

type LockClient interface {
	SetNEX(ctx context.Context, key, value string, expireSeconds int64) (int64, error)
}

// Client is the library's redigo client, which applications use for
// their data too.
type Client struct{ pool *redis.Pool }

func NewClient(network, address, password string) *Client { return &Client{} }

func (c *Client) SetNEX(ctx context.Context, key, value string, expireSeconds int64) (int64, error) {
	conn := c.pool.Get()
	defer conn.Close()
	return redis.Int64(conn.Do("SET", key, value, "EX", expireSeconds, "NX"))
}

// Set keeps value under key with no expiry.
func (c *Client) Set(ctx context.Context, key, value string) (int64, error) {
	conn := c.pool.Get()
	defer conn.Close()
	_, err := conn.Do("SET", key, value)
	return 1, err
}

type LockOptions struct {
	isBlock       bool
	expireSeconds int64
}

type LockOption func(*LockOptions)

func WithBlock() LockOption { return func(o *LockOptions) { o.isBlock = true } }
func WithExpireSeconds(expireSeconds int64) LockOption {
	return func(o *LockOptions) { o.expireSeconds = expireSeconds }
}

type RedisLock struct {
	LockOptions
	key string
}

func NewRedisLock(key string, client LockClient, opts ...LockOption) *RedisLock {
	return &RedisLock{key: key}
}

func (r *RedisLock) Lock(ctx context.Context) error                             { return ErrLockAcquiredByOthers }
func (r *RedisLock) Unlock(ctx context.Context) error                           { return nil }
func (r *RedisLock) DelayExpire(ctx context.Context, expireSeconds int64) error { return nil }
