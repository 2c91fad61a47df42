package result

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// A leader election: its key is the leader's lock, though nothing about
// the key or the functions says lock. Only SetNX's error is returned, so
// a rival's key reads as elected.
type redisElector struct {
	rdb      *redis.Client
	key, id  string
	isLeader atomic.Bool
}

func (e *redisElector) trySet(ctx context.Context) error {
	res := e.rdb.SetNX(ctx, e.key, e.id, 15*time.Second) // want `only the error of SetNX of e.key is checked`
	return res.Err()
}

func (e *redisElector) StartLeading(ctx context.Context) error {
	if err := e.trySet(ctx); err != nil {
		return err
	}
	e.isLeader.Store(true)
	return nil
}

func (e *redisElector) Release(ctx context.Context) error {
	return e.rdb.Del(ctx, e.key).Err()
}

// Near miss: a Selector (not an elector) writes a default once with the
// same shape and clears it; nothing names a lock.
type fieldSelector struct {
	rdb *redis.Client
	key string
}

func (s *fieldSelector) trySet(ctx context.Context) error {
	res := s.rdb.SetNX(ctx, s.key, "default", 15*time.Second)
	return res.Err()
}

func (s *fieldSelector) Reset(ctx context.Context) error {
	return s.rdb.Del(ctx, s.key).Err()
}
