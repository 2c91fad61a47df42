// Package failopenincr: locks taken with INCR (the first to count to 1
// holds it), whose wrappers answer "held by someone else".
package failopenincr

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

type Locker struct {
	pool *redis.Pool
	rdb  *goredis.Client
}

// IsLocked answers true when another runtime holds the lock; on a Redis
// error it answers false, "free", and its callers run unlocked.
func (l *Locker) IsLocked(key string) bool {
	conn := l.pool.Get()
	defer conn.Close()
	n, err := redis.Int64(conn.Do("INCR", "lock:"+key)) // want `when INCR fails \(Redis unreachable, a timeout\), IsLocked returns false, the answer for a free lock`
	if err != nil {
		return false
	}
	return n > 1
}

// The same on go-redis, answering "taken" the other way round: a failure
// answering true lets the caller in.
func (l *Locker) TryLock(ctx context.Context, key string) bool {
	n, err := l.rdb.Incr(ctx, "lock:"+key).Result() // want `when INCR fails \(Redis unreachable, a timeout\), TryLock returns true: its caller takes the lock as held`
	if err != nil {
		return true
	}
	if n == 1 {
		l.rdb.Expire(ctx, "lock:"+key, time.Minute)
	}
	return n == 1
}

// Near misses: a failure answered as "held" (fail closed), one returned
// with its error, and a rate limiter counting to a limit.
func (l *Locker) IsLockedStrict(key string) bool {
	conn := l.pool.Get()
	defer conn.Close()
	n, err := redis.Int64(conn.Do("INCR", "lock:"+key))
	if err != nil {
		return true
	}
	return n > 1
}

func (l *Locker) IsLockedErr(key string) (bool, error) {
	conn := l.pool.Get()
	defer conn.Close()
	n, err := redis.Int64(conn.Do("INCR", "lock:"+key))
	if err != nil {
		return false, err
	}
	return n > 1, nil
}

func (l *Locker) overLimit(ctx context.Context, user string) bool {
	n, err := l.rdb.Incr(ctx, "calls:"+user).Result()
	if err != nil {
		return false
	}
	return n > 100
}
