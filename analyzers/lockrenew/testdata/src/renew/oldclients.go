package renew

import (
	"context"
	"time"

	redisv6 "github.com/go-redis/redis"
	redisv7 "github.com/go-redis/redis/v7"
	redisv8 "github.com/go-redis/redis/v8"
)

// Older go-redis clients cannot be passed to safelock.RenewKey: reported,
// no fix.

type v8Lock struct {
	rdb   *redisv8.Client
	key   string
	token string
}

func (l *v8Lock) Lock(ctx context.Context) bool {
	return l.rdb.SetNX(ctx, l.key, l.token, ttl).Val()
}

func (l *v8Lock) Refresh(ctx context.Context) error {
	return l.rdb.Expire(ctx, l.key, ttl).Err() // want `lock l.key is renewed with EXPIRE without checking`
}

func (l *v8Lock) Unlock(ctx context.Context) {
	l.rdb.Del(ctx, l.key)
}

func v7Watchdog(c redisv7.UniversalClient, job string, stop <-chan struct{}) {
	token := newToken()
	if !c.SetNX("job:"+job, token, ttl).Val() {
		return
	}
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(ttl / 2):
				c.PExpire("job:"+job, ttl) // want `lock "job:" \+ job is renewed with PEXPIRE without checking`
			}
		}
	}()
}

func v6Refresh(c *redisv6.ClusterClient, key, token string) {
	if !c.SetNX(key, token, ttl).Val() {
		panic("lock busy")
	}
	for i := 0; i < 10; i++ {
		c.Expire(key, ttl) // want `lock key is renewed with EXPIRE without checking`
	}
}

// go-redis Do with raw words.
func doRawLock(ctx context.Context, c *redisv8.Client, key string) {
	token := newToken()
	if c.Do(ctx, "set", key, token, "px", 10000, "nx").Err() != nil {
		panic("lock busy")
	}
	for {
		c.Do(ctx, "pexpire", key, 10000) // want `lock key is renewed with PEXPIRE without checking`
	}
}

// Negative: v8 session refresh, never acquired with NX.
func v8Session(ctx context.Context, c redisv8.Cmdable, sid string) {
	c.Expire(ctx, "sess:"+sid, time.Hour)
}
