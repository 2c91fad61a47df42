package expiry

import (
	"context"
	"time"

	redisv6 "github.com/go-redis/redis"
	redisv8 "github.com/go-redis/redis/v8"
)

func v8Lock(ctx context.Context, c redisv8.UniversalClient, key string) {
	if c.SetNX(ctx, key, "1", 0).Val() { // want `acquired with SET NX and given its TTL by a separate EXPIRE`
		c.Expire(ctx, key, 10*time.Second)
	}
}

func v6Lock(c *redisv6.Client, key string) {
	if c.SetNX(key, "1", 0).Val() { // want `acquired with SET NX and given its TTL by a separate EXPIRE`
		c.Expire(key, 10*time.Second)
	}
}

// Negative: v6 Tx.Pipelined is MULTI/EXEC.
func v6Tx(c *redisv6.Client, key string) {
	c.Watch(func(tx *redisv6.Tx) error {
		_, err := tx.Pipelined(func(p redisv6.Pipeliner) error {
			p.SetNX(key, "1", 0)
			p.Expire(key, time.Second)
			return nil
		})
		return err
	}, key)
	c.Del(key)
}
