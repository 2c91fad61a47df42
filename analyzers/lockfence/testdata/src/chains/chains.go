package chains

import (
	"context"
	"database/sql"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/safelock"
)

// The writes are six helpers down, each declared before the helper it
// calls, so that summarising in source order settles one level a round.

type Jobs struct {
	rdb    *redis.Client
	db     *sql.DB
	locker *safelock.Locker
	token  string
}

// The lease's fence travels down the chain to a write that checks it.
func (j *Jobs) Finish(ctx context.Context, id string) error {
	lease, err := j.locker.TryAcquire(ctx, "finish:"+id, 30*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	return j.fenced1(ctx, id, lease.Fence())
}

func (j *Jobs) fenced1(ctx context.Context, id string, fence int64) error {
	return j.fenced2(ctx, id, fence)
}

func (j *Jobs) fenced2(ctx context.Context, id string, fence int64) error {
	return j.fenced3(ctx, id, fence)
}

func (j *Jobs) fenced3(ctx context.Context, id string, fence int64) error {
	return j.fenced4(ctx, id, fence)
}

func (j *Jobs) fenced4(ctx context.Context, id string, fence int64) error {
	return j.fenced5(ctx, id, fence)
}

func (j *Jobs) fenced5(ctx context.Context, id string, fence int64) error {
	return j.fenced6(ctx, id, fence)
}

func (j *Jobs) fenced6(ctx context.Context, id string, fence int64) error {
	_, err := j.db.ExecContext(ctx, "UPDATE jobs SET done = 1, fence = ? WHERE id = ? AND fence < ?", fence, id, fence)
	return err
}

func (j *Jobs) Run(ctx context.Context, id string) error {
	ok, err := j.rdb.SetNX(ctx, "run:lock:"+id, j.token, 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	return j.step1(ctx, id) // want `j.step1 \(database/sql DB.ExecContext at chains.go:\d+\) under lock "run:lock:" \+ id \(SET NX\) carries no fencing token`
}

func (j *Jobs) step1(ctx context.Context, id string) error { return j.step2(ctx, id) }

func (j *Jobs) step2(ctx context.Context, id string) error { return j.step3(ctx, id) }

func (j *Jobs) step3(ctx context.Context, id string) error { return j.step4(ctx, id) }

func (j *Jobs) step4(ctx context.Context, id string) error { return j.step5(ctx, id) }

func (j *Jobs) step5(ctx context.Context, id string) error { return j.step6(ctx, id) }

func (j *Jobs) step6(ctx context.Context, id string) error {
	_, err := j.db.ExecContext(ctx, "UPDATE jobs SET done = 1 WHERE id = ?", id)
	return err
}
