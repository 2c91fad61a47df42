package value

import (
	"context"
	"fmt"
	"os"
	"time"

	redisv6 "github.com/go-redis/redis"
	redisv7 "github.com/go-redis/redis/v7"
	redisv8 "github.com/go-redis/redis/v8"
)

func v8Lock(ctx context.Context, c *redisv8.Client, job string) {
	if c.SetNX(ctx, "job:"+job, "running", time.Minute).Val() { // want `lock "job:" \+ job stores the constant "running" as its value`
		defer c.Del(ctx, "job:"+job)
	}
}

func v7Lock(c redisv7.UniversalClient, key string) {
	if !c.SetNX(key, time.Now().Unix(), time.Minute).Val() { // want `lock key stores a timestamp as its value`
		panic("lock busy")
	}
	c.Del(key)
}

func v6Lock(c *redisv6.Ring, key string) {
	host, _ := os.Hostname()
	if !c.SetNX(key, host, time.Minute).Val() { // want `lock key stores the hostname as its value`
		panic("lock busy")
	}
	c.Del(key)
}

// go-redis Do with raw words.
func doRaw(ctx context.Context, c *redisv8.Client, key string) {
	if c.Do(ctx, "set", key, fmt.Sprint(os.Getpid()), "px", 10000, "nx").Err() != nil { // want `lock key stores the process ID as its value`
		panic("lock busy")
	}
	c.Do(ctx, "del", key)
}
