// Package unitsok holds TTLs in the right units: nothing is reported.
package unitsok

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var rdb = redis.NewClient(&redis.Options{})

const (
	lockTTL    = 30 * time.Second
	ttlSeconds = 10
	pxMillis   = 1500
	ttlDivide  = 4
)

type config struct {
	TTLSeconds int
	TTL        time.Duration
	Retries    int
}

func goRedis(ctx context.Context, cfg config, key, token string, ttl time.Duration, n int) {
	rdb.SetNX(ctx, key, token, lockTTL)
	rdb.SetNX(ctx, key, token, lockTTL/2)   // half the span, still a time.Duration
	rdb.SetNX(ctx, key, token, ttl/3)       // as a renewal interval is taken
	rdb.Expire(ctx, key, cfg.TTL/ttlDivide) // a divisor without a unit
	rdb.SetNX(ctx, key, token, 0)           // no TTL: lockexpiry's business
	rdb.Set(ctx, key, token, redis.KeepTTL) // KEEPTTL
	rdb.Set(ctx, key, token, -1)            // KEEPTTL spelled out
	rdb.Expire(ctx, key, ttlSeconds*time.Second)
	rdb.Expire(ctx, key, time.Duration(cfg.TTLSeconds)*time.Second)
	rdb.Expire(ctx, key, time.Duration(n)*time.Second)
	rdb.Expire(ctx, key, time.Duration(n)) // unknown unit: silent
	rdb.PExpire(ctx, key, pxMillis*time.Millisecond)
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: cfg.TTL})
	rdb.Expire(ctx, key, 2*ttl)
	rdb.Expire(ctx, key, ttl+time.Second)
	rdb.Expire(ctx, key, 1500000000)             // 1.5s, written in nanoseconds on purpose
	rdb.Set(ctx, key, token, 5*time.Microsecond) // tiny, but the unit is written
	secs := int64(ttl / time.Second)
	rdb.Do(ctx, "set", key, token, "nx", "ex", secs)
	rdb.Do(ctx, "set", key, token, "nx", "px", ttl.Milliseconds())
	rdb.Do(ctx, "set", key, token, "nx", "px", 30000) // a plain number: can't tell
	rdb.Do(ctx, "set", key, token, "nx", "ex", ttlSeconds)
	rdb.Do(ctx, "set", key, token, "nx", "px", pxMillis)
	rdb.Do(ctx, "expire", key, int(ttl.Seconds()))
	rdb.Do(ctx, "expire", key, ttl/time.Second) // v9 sends the count, which is seconds
	rdb.Do(ctx, "pexpireat", key, time.Now().Add(ttl).UnixMilli())
	rdb.Do(ctx, "expireat", key, time.Now().Add(ttl).Unix())
	rdb.Do(ctx, "set", key, token, "nx", "px", ttl.Seconds()*1000)
	rdb.Do(ctx, "set", key, token, "nx", "ex", ttl.Milliseconds()/1000)
	deadlineMs := time.Now().Add(ttl).UnixMilli()
	rdb.Do(ctx, "set", key, token, "pxat", deadlineMs)
	rdb.ExpireAt(ctx, key, time.Now().Add(ttl))
}

func redigoOK(conn redigo.Conn, key, token string, ttl time.Duration, cfg config) {
	conn.Do("SET", key, token, "NX", "PX", ttl.Milliseconds())
	conn.Do("SET", key, token, "NX", "EX", int64(ttl/time.Second))
	conn.Do("SET", key, token, "NX", "EX", cfg.TTLSeconds)
	conn.Do("EXPIRE", key, int64(lockTTL.Seconds()))
	conn.Do("INCRBY", key, cfg.Retries)
	conn.Do("SET", key, token, "NX", "PX", 30000)
}

func rueidisOK(ctx context.Context, c rueidis.Client, key, token string, ttl time.Duration) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(ttl).Build())
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Ex(2*time.Second).Build())
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().ExSeconds(int64(ttl/time.Second)).Build())
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().PxMilliseconds(ttl.Milliseconds()).Build())
	c.Do(ctx, c.B().Pexpire().Key(key).Milliseconds(ttl.Milliseconds()).Build())
}
