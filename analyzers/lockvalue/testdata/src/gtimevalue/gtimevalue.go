// Package gtimevalue takes locks whose value comes from GoFrame's clock.
package gtimevalue

import (
	"context"
	"time"

	"github.com/gogf/gf/v2/os/gtime"
	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func initTable(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, "tdLock:initTable", gtime.Now().Unix(), time.Hour).Result() // want `stores a timestamp as its value`
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "tdLock:initTable")
	return nil
}

func initLog(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, "tdLock:initLog", gtime.TimestampMilli(), time.Hour).Result() // want `stores a timestamp as its value`
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "tdLock:initLog")
	return nil
}

// A duration measured with the clock is not a timestamp of the value.
func initTimed(ctx context.Context, token string, started *gtime.Time) error {
	ttl := gtime.Now().Sub(started) + time.Minute
	ok, err := rdb.SetNX(ctx, "tdLock:timed", token, ttl).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "tdLock:timed")
	return nil
}
