// Package kvstore wraps one client for a whole service: every key goes
// through the same thin helpers, locks among them.
package kvstore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var client *redis.Client

func SetNX(key string, value any, ttl time.Duration) (bool, error) {
	return client.SetNX(context.Background(), key, value, ttl).Result()
}

func Expire(key string, ttl time.Duration) (bool, error) {
	return client.Expire(context.Background(), key, ttl).Result()
}
