// Package gfseat takes seat locks with GoFrame's gredis, whose SetNX has
// no TTL argument.
package gfseat

import (
	"context"
	"errors"

	"github.com/gogf/gf/v2/database/gredis"
	"github.com/google/uuid"
)

type Seats struct{ r *gredis.Redis }

func (s *Seats) Take(ctx context.Context, key string, work func() error) error {
	ok, err := s.r.SetNX(ctx, key, uuid.NewString()) // want `lock key is acquired with SET NX and given its TTL by a separate EXPIRE`
	if err != nil || !ok {
		return errors.New("seat taken")
	}
	_, _ = s.r.Expire(ctx, key, 10)
	defer s.r.Eval(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, 1, []string{key}, []any{"x"})
	return work()
}

// SET NX EX in one command through Do: atomic.
func (s *Seats) TakeAtomic(ctx context.Context, key, token string, work func() error) error {
	v, err := s.r.Do(ctx, "SET", key, token, "NX", "EX", 10)
	if err != nil || v.IsNil() {
		return errors.New("seat taken")
	}
	defer s.r.Eval(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, 1, []string{key}, []any{token})
	return work()
}
