// Package demo is a small job runner with the Redis lock bugs that locklint
// finds. Run `go run ./cmd/locklint ./testdata/demo` from the repository root
// to see them; `-diff` shows the suggested fixes.
package demo

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Runner runs each job on one machine at a time.
type Runner struct {
	rdb *redis.Client
	db  *sql.DB
}

// RunReport takes the report lock the way many services do: SETNX, then a
// separate EXPIRE, a constant value, and a plain DEL at the end.
func (r *Runner) RunReport(ctx context.Context, day string) error {
	key := "lock:report:" + day
	ok, err := r.rdb.SetNX(ctx, key, "1", 0).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("report already running")
	}
	r.rdb.Expire(ctx, key, 30*time.Second)
	defer r.rdb.Del(ctx, key)

	_, err = r.db.ExecContext(ctx, "UPDATE reports SET done = true WHERE day = ?", day)
	return err
}

// Refresh keeps a long job's lock alive, without checking who owns it.
func (r *Runner) Refresh(ctx context.Context, job string) error {
	return r.rdb.Expire(ctx, "lock:job:"+job, time.Minute).Err()
}

// StartJob takes the job lock that Refresh extends.
func (r *Runner) StartJob(ctx context.Context, job string) (bool, error) {
	return r.rdb.SetNX(ctx, "lock:job:"+job, time.Now().UnixNano(), time.Minute).Result()
}
