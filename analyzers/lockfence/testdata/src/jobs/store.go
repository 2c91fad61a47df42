package jobs

import (
	"context"
	"database/sql"
	"time"

	"github.com/redis/go-redis/v9"

	"locks"
)

type Store struct {
	rdb   *redis.Client
	db    *sql.DB
	lk    *locks.Locker
	token string
}

func lockKey(id string) string { return "job:" + id + ":lock" }

func (s *Store) lock(ctx context.Context, id string) (bool, error) {
	return s.rdb.SetNX(ctx, lockKey(id), s.token, 30*time.Second).Result()
}

func (s *Store) unlock(ctx context.Context, id string) {
	s.rdb.Del(ctx, lockKey(id))
}
