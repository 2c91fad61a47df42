package expiry

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A failure count under a lock-named key: the first failure opens the
// count's window, and that is all the reply decides. No lock.
func recordLoginFailure(ctx context.Context, account string) {
	key := "login:lock:" + account
	n, _ := rdb.Incr(ctx, key).Result()
	if n == 1 {
		_ = rdb.Expire(ctx, key, 15*time.Minute).Err()
	}
}

func clearLoginFailures(ctx context.Context, account string) {
	rdb.Del(ctx, "login:lock:"+account)
}

// The first increment wins and is told so: a lock taken with INCR, its
// TTL set by a second command.
func tryJobLock(ctx context.Context, job string) bool {
	key := "job:lock:" + job
	n, _ := rdb.Incr(ctx, key).Result() // want `lock key is acquired with INCR and given its TTL by a separate EXPIRE`
	if n == 1 {
		rdb.Expire(ctx, key, time.Minute)
		return true
	}
	return false
}

func releaseJobLock(ctx context.Context, job string) {
	rdb.Del(ctx, "job:lock:"+job)
}

type sender struct {
	store *struct{ Redis *redis.Client }
}

// Two send counters, each opened by its first increment, after the
// limits were read with GET: rate limits, not locks.
func (s *sender) countSend(ctx context.Context, email string) error {
	hourKey := "captcha:limit:1h:" + email
	perHour, err := s.store.Redis.Get(ctx, hourKey).Int()
	if err != nil && err != redis.Nil {
		return err
	}
	if perHour >= 5 {
		return nil
	}
	dayKey := "captcha:limit:24h:" + email
	n1, _ := s.store.Redis.Incr(ctx, hourKey).Result()
	if n1 == 1 {
		s.store.Redis.Expire(ctx, hourKey, time.Hour)
	}
	n2, _ := s.store.Redis.Incr(ctx, dayKey).Result()
	if n2 == 1 {
		s.store.Redis.Expire(ctx, dayKey, 24*time.Hour)
	}
	return nil
}
