// Package nscache is a service's store whose every key goes through one
// namespace helper: Store, Get, Del, Expire and SetNX serve any key, and
// only their callers know which keys are locks. Its own lock API (Lock,
// Unlock) is correct. No analyzer reports anything here.
package nscache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	rdb    = redis.NewClient(&redis.Options{})
	ctx    = context.Background()
	prefix = "svc"
)

func key(k string) string { return prefix + ":" + k }

func cmdable(c ...redis.Cmdable) redis.Cmdable {
	if len(c) > 0 {
		return c[0]
	}
	return rdb
}

func Store(k string, v any, ttl time.Duration, c ...redis.Cmdable) error {
	return cmdable(c...).Set(ctx, key(k), v, ttl).Err()
}

func Get(k string) (string, error) { return rdb.Get(ctx, key(k)).Result() }

func Del(k string, c ...redis.Cmdable) (int64, error) {
	return cmdable(c...).Del(ctx, key(k)).Result()
}

func Expire(k string, ttl time.Duration, c ...redis.Cmdable) (bool, error) {
	return cmdable(c...).Expire(ctx, key(k), ttl).Result()
}

func SetNX(k string, v any, ttl time.Duration, c ...redis.Cmdable) (bool, error) {
	return cmdable(c...).SetNX(ctx, key(k), v, ttl).Result()
}

// Transaction runs fn in MULTI/EXEC: the commands it queues answer only
// after EXEC.
func Transaction(fn func(redis.Pipeliner) error) error {
	_, err := rdb.TxPipelined(ctx, fn)
	return err
}

var unlockScript = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// Lock takes k with a token of its own and returns the token.
func Lock(k string, ttl time.Duration) (string, bool, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", false, err
	}
	tok := hex.EncodeToString(b)
	ok, err := rdb.SetNX(ctx, key(k), tok, ttl).Result()
	return tok, ok, err
}

// Unlock deletes k only while it holds tok.
func Unlock(k, tok string) error {
	return unlockScript.Run(ctx, rdb, []string{key(k)}, tok).Err()
}
