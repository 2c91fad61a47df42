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

var renewScript = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`)

const electorKey = "leader:elector"

// Elector renews with an owner check and records a loss itself.
type Elector struct {
	rdb      *redis.Client
	id       string
	IsLeader bool
}

func (e *Elector) TryAcquire(ctx context.Context) {
	ok, err := e.rdb.SetNX(ctx, electorKey, e.id, 30*time.Second).Result()
	e.IsLeader = err == nil && ok
}

func (e *Elector) Renew(ctx context.Context) error {
	n, err := renewScript.Run(ctx, e.rdb, []string{electorKey}, e.id, 30000).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		e.IsLeader = false
	}
	return nil
}
