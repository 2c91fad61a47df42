// Package taskstore keeps task locks for workers in another package: one
// call takes, renews or releases a task's lock.
package taskstore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb *redis.Client }

func (s *Store) lockKey(id string) string { return "task:lock:" + id }

func (s *Store) AcquireLock(ctx context.Context, id, token string, ttl time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, s.lockKey(id), token, ttl).Result()
}

func (s *Store) RenewLock(ctx context.Context, id string, ttl time.Duration) error {
	return s.rdb.PExpire(ctx, s.lockKey(id), ttl).Err()
}

func (s *Store) ReleaseLock(ctx context.Context, id string) error {
	return s.rdb.Del(ctx, s.lockKey(id)).Err()
}
