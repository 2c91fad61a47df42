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

const reentrant = `if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2])
end
return redis.call("SET", KEYS[1], ARGV[1], "NX", "EX", ARGV[2])`

const unlockScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

// go-redis v6 flattens the ARGV slice: ARGV[1] is its first element.
func v6Script(c *redisv6.Client, key string) (bool, error) {
	host, _ := os.Hostname()
	resp, err := c.Eval(reentrant, []string{key}, []string{host, "30"}).Result() // want `lock key stores the hostname as its value`
	if err != nil || resp == nil {
		return false, err
	}
	c.Eval(unlockScript, []string{key}, []string{host})
	return true, nil
}
