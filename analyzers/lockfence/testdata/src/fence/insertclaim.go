package fence

import (
	"context"
	"time"
)

// An INSERT that does nothing when its key exists claims the row: a
// stale holder's late insert of the same run finds it taken, and the
// writes after a test of the rows it affected run only for the claimer.
func runTickClaimed(ctx context.Context, job, token string) error {
	key := "tick:lock:" + job
	if ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result(); err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	tick := time.Now().Truncate(time.Minute)
	res, err := db.ExecContext(ctx, "INSERT INTO job_runs (job, tick) VALUES ($1, $2) ON CONFLICT (job, tick) DO NOTHING", job, tick)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET last_run = $1 WHERE id = $2", tick, job)
	return err
}

// MySQL's and SQLite's forms.
func runTickIgnore(ctx context.Context, job, token string) error {
	key := "tick2:lock:" + job
	if ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result(); err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	if _, err := db.ExecContext(ctx, "INSERT IGNORE INTO job_runs (job, tick) VALUES (?, ?)", job, time.Now().Unix()); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT OR IGNORE INTO job_runs (job, tick) VALUES (?, ?)", job, time.Now().Unix())
	return err
}

// Near miss: an upsert that updates on conflict overwrites the newer
// holder's row.
func runTickUpsert(ctx context.Context, job, token, pod string) error {
	key := "tick3:lock:" + job
	if ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result(); err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	_, err := db.ExecContext(ctx, "INSERT INTO job_runs (job, tick, pod) VALUES ($1, $2, $3) ON CONFLICT (job, tick) DO UPDATE SET pod = excluded.pod", job, time.Now().Unix(), pod) // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token`
	return err
}

// inTx runs fn in a transaction.
func inTx(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }

// The claim made in a transaction's callback, which records whether it
// inserted; the test and the writes after it are outside the callback.
func runTickInTx(ctx context.Context, job, token string) error {
	key := "tick4:lock:" + job
	if ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result(); err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	var inserted bool
	if err := inTx(ctx, func(ctx context.Context) error {
		res, err := db.ExecContext(ctx, "INSERT INTO job_runs (job, tick) VALUES ($1, $2) ON CONFLICT DO NOTHING", job, time.Now().Unix())
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		inserted = n > 0
		return nil
	}); err != nil {
		return err
	}
	if !inserted {
		return nil
	}
	return inTx(ctx, func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "UPDATE job_runs SET status = 'done' WHERE job = $1", job)
		return err
	})
}

// Near miss: the same callback, but nothing tests what it recorded.
func runTickInTxUntested(ctx context.Context, job, token string) error {
	key := "tick5:lock:" + job
	if ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result(); err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	var inserted bool
	_ = inTx(ctx, func(ctx context.Context) error {
		res, err := db.ExecContext(ctx, "INSERT INTO job_runs (job, tick) VALUES ($1, $2) ON CONFLICT DO NOTHING", job, time.Now().Unix())
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		inserted = n > 0
		return nil
	})
	_ = inserted
	_, err := db.ExecContext(ctx, "UPDATE job_runs SET status = 'done' WHERE job = $1", job) // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token`
	return err
}
