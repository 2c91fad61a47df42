// Package jsoncache stores JSON: the value its callers pass is marshalled
// first, which keeps a constant constant and a token unique.
package jsoncache

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache struct {
	rdb  *redis.Client
	node string
}

func (c *Cache) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	data, err := json.Marshal(value)
	if err != nil {
		return false, err
	}
	return c.rdb.SetNX(ctx, key, data, ttl).Result()
}

// Tagged stores the value behind this node's name: not the caller's value alone.
func (c *Cache) Tagged(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, c.node+":"+fmt.Sprint(value), ttl).Result()
}

func (c *Cache) Del(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, key).Err()
}
