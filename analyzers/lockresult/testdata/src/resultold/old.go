// Package resultold uses go-redis v6, v7 and v8.
package resultold

import (
	"context"
	"log"
	"time"

	redis6 "github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
)

func work() {}

func v6(c *redis6.Client, token string) {
	c.SetNX("lock:cron", token, time.Minute) // want `the result of SetNX of "lock:cron" is discarded`
	work()
	c.Del("lock:cron")
}

func v7(c *redis7.Client, token string) error {
	if err := c.SetNX("lock:cron", token, time.Minute).Err(); err != nil { // want `only the error of SetNX of "lock:cron" is checked`
		return err
	}
	work()
	return c.Del("lock:cron").Err()
}

func v8(ctx context.Context, c redis8.Cmdable, token string) {
	ok, err := c.SetNX(ctx, "lock:cron", token, time.Minute).Result()
	if err != nil || !ok { // want `when SetNX of "lock:cron" fails \(err != nil \|\| !ok\), this branch falls through into the code that needs the lock: work\(...\) runs without it`
		log.Printf("lock: %v %v", ok, err)
	}
	work()
	c.Del(ctx, "lock:cron")
}
