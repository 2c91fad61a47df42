// Package rdbhelp wraps the client in functions that take it as an
// argument, and marshals every value with a serializer kept in a package
// variable (var json = jsoniter.ConfigCompatibleWithStandardLibrary). Its
// Lock and Unlock are built from its own SetNX and Del.
package rdbhelp

import (
	"context"
	stdjson "encoding/json"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type API interface {
	Marshal(v any) ([]byte, error)
}

type std struct{}

func (std) Marshal(v any) ([]byte, error) { return stdjson.Marshal(v) }

var json API = std{}

var ErrExists = errors.New("rdbhelp: key exists")

func SetEX(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return rdb.Set(ctx, key, b, ttl).Err()
}

func SetNX(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	ok, err := rdb.SetNX(ctx, key, b, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrExists
	}
	return nil
}

func Del(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}

func Lock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration) error {
	return SetNX(ctx, rdb, key, ttl, "")
}

func Unlock(ctx context.Context, rdb *redis.Client, key string) error {
	return Del(ctx, rdb, key) // want `lock key is deleted with DEL \(in rdbhelp.Del at rdbhelp.go:\d+\) without checking that this holder still owns it`
}

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// LockOwned stores the caller's token; UnlockOwned compares it first.
func LockOwned(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) error {
	return SetNX(ctx, rdb, key, ttl, token)
}

func UnlockOwned(ctx context.Context, rdb *redis.Client, key, token string) error {
	b, err := json.Marshal(token)
	if err != nil {
		return err
	}
	return release.Run(ctx, rdb, []string{key}, b).Err()
}

// Forget drops a cached entry: no lock.
func Forget(ctx context.Context, rdb *redis.Client, key string) error {
	return Del(ctx, rdb, key)
}
