// Package kvadapter hides go-redis behind an interface whose methods are
// named after the commands, and adds a namespace prefix to every key.
package kvadapter

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Adapter interface {
	SetNX(key string, value []byte, ttl time.Duration) (bool, error)
	Del(key string) error
}

type adapter struct {
	c      *redis.Client
	prefix string
}

func New(c *redis.Client, prefix string) Adapter { return &adapter{c: c, prefix: prefix} }

func (a *adapter) SetNX(key string, value []byte, ttl time.Duration) (bool, error) {
	return a.c.SetNX(context.Background(), a.prefix+key, value, ttl).Result()
}

func (a *adapter) Del(key string) error {
	return a.c.Del(context.Background(), a.prefix+key).Err()
}
