// Package gfseat releases GoFrame gredis locks.
package gfseat

import (
	"context"
	"errors"

	"github.com/gogf/gf/v2/database/gredis"
	"github.com/google/uuid"
)

type Seats struct{ r *gredis.Redis }

func (s *Seats) Take(ctx context.Context, key string, work func() error) error {
	v, err := s.r.Do(ctx, "SET", key, uuid.NewString(), "NX", "EX", 10)
	if err != nil || v.IsNil() {
		return errors.New("seat taken")
	}
	defer s.r.Del(ctx, key) // want `lock key is deleted with DEL without checking`
	return work()
}

// Compare-and-delete through Eval: checked.
func (s *Seats) TakeChecked(ctx context.Context, key string, work func() error) error {
	token := uuid.NewString()
	v, err := s.r.Do(ctx, "SET", key, token, "NX", "EX", 10)
	if err != nil || v.IsNil() {
		return errors.New("seat taken")
	}
	defer s.r.Eval(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, 1, []string{key}, []any{token})
	return work()
}

// A cache entry set and dropped: no lock.
func (s *Seats) Refresh(ctx context.Context, key string) error {
	if _, err := s.r.Set(ctx, "cache:"+key, "v"); err != nil {
		return err
	}
	_, err := s.r.Del(ctx, "cache:"+key)
	return err
}
