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

// Repo writes through helpers, in another file and package.
type Repo struct{ db *sql.DB }

func (r *Repo) MarkDone(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(ctx, "UPDATE jobs SET done = 1 WHERE id = ?", id)
	return err
}

func (r *Repo) MarkDoneFenced(ctx context.Context, id string, fence int64) error {
	_, err := r.db.ExecContext(ctx, "UPDATE jobs SET done = 1, fence = ? WHERE id = ? AND fence < ?", fence, id, fence)
	return err
}

func (r *Repo) SaveFence(ctx context.Context, id string, fence int64) error {
	return r.exec(ctx, "UPDATE jobs SET fence = ? WHERE id = ?", fence, id)
}

func (r *Repo) exec(ctx context.Context, q string, args ...any) error {
	_, err := r.db.ExecContext(ctx, q, args...)
	return err
}
