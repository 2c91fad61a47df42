package fence

import (
	"context"
	"log"
	"time"
)

// A leader tick: the node's status record after the if/else is written
// on both outcomes, holder or not, so the lock does not protect it.
func leaderTick(ctx context.Context, self string, was bool) bool {
	ok, err := rdb.SetNX(ctx, "cluster_leader_lock", self, 10*time.Second).Result()
	if err != nil {
		log.Printf("election: %v", err)
	}
	if ok {
		log.Printf("leader")
	} else {
		log.Printf("follower")
	}
	if ok != was {
		db.ExecContext(ctx, "UPDATE nodes SET leader = ? WHERE id = ?", ok, self)
	}
	return ok
}

// The job update in the holder's branch is the lock's.
func leaderTickWork(ctx context.Context, self string) bool {
	ok, err := rdb.SetNX(ctx, "cluster_leader_lock", self, 10*time.Second).Result()
	if err != nil {
		log.Printf("election: %v", err)
	}
	if ok {
		db.ExecContext(ctx, "UPDATE jobs SET owner = ? WHERE owner IS NOT NULL", self) // want `database/sql DB.ExecContext under lock "cluster_leader_lock" \(SET NX\) carries no fencing token`
	} else {
		log.Printf("follower")
	}
	return ok
}

// The error branch only logs, but a failed SetNX also answers false and
// !ok leaves: the write after both tests runs only for the holder.
func leaderTickChecked(ctx context.Context, self string) {
	ok, err := rdb.SetNX(ctx, "cluster_leader_lock", self, 10*time.Second).Result()
	if err != nil {
		log.Printf("election: %v", err)
	}
	if !ok {
		return
	}
	db.ExecContext(ctx, "UPDATE jobs SET owner = ? WHERE owner IS NOT NULL", self) // want `database/sql DB.ExecContext under lock "cluster_leader_lock" \(SET NX\) carries no fencing token`
}

// resign gives the leadership up (the ticks above keep it until then).
func resign(ctx context.Context) { rdb.Del(ctx, "cluster_leader_lock") }

// A leader loop: a failed attempt waits for the next tick (continue), and
// the write after if !leader { acquire } else { renew } runs in the tick
// that took the lock, or in a later one that holds it. The failure reaches
// it only through a new iteration, where the lock is held again.
func leaderLoop(ctx context.Context, self string, ticks <-chan time.Time) {
	leader := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			if !leader {
				ok, err := rdb.SetNX(ctx, "loop_leader_lock", self, 10*time.Second).Result()
				if err != nil || !ok {
					continue
				}
				leader = true
			} else if !stillLeader(ctx, self) {
				leader = false
				continue
			}
			db.ExecContext(ctx, "UPDATE jobs SET owner = ? WHERE owner IS NOT NULL", self) // want `database/sql DB.ExecContext under lock "loop_leader_lock" \(SET NX\) carries no fencing token`
		}
	}
}

func stillLeader(ctx context.Context, self string) bool {
	v, _ := rdb.Get(ctx, "loop_leader_lock").Result()
	return v == self
}

// One lock per task, each held until the function returns, the work done
// elsewhere. The write at the top of the loop is for the next task, before
// its lock is taken: the lock of the task before does not protect it.
func batchLocks(ctx context.Context, self string, tasks []string) []string {
	var held []string
	for _, t := range tasks {
		if t == "" {
			db.ExecContext(ctx, "UPDATE tasks SET state = 'abandoned' WHERE id = ?", t)
			continue
		}
		ok, _ := rdb.SetNX(ctx, "task_lock:"+t, self, time.Minute).Result()
		if !ok {
			continue
		}
		held = append(held, t)
	}
	return held
}

// A refused acquire waits and tries again through a helper; the outcome it
// assigns is the new attempt's, and only a holder goes on to the write.
func waitThenWrite(ctx context.Context, self string) error {
	ok, err := takeJobLock(ctx, self)
	if err != nil {
		return err
	}
	if !ok {
		ok, err = retryLock(ctx, func() (bool, error) { return takeJobLock(ctx, self) })
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
	}
	defer rdb.Del(ctx, "job_lock")
	_, err = db.ExecContext(ctx, "UPDATE jobs SET owner = ?", self) // want `database/sql DB.ExecContext under lock "job_lock" \(SET NX \(in fence.takeJobLock at bothpaths.go:\d+\)\) carries no fencing token`
	return err
}

// A refused acquire calls another function, whose answer it takes in its
// stead: the write after runs on both paths of the acquire.
func otherThenWrite(ctx context.Context, self string) error {
	ok, err := takeJobLock(ctx, self)
	if err != nil {
		return err
	}
	if !ok {
		ok, err = retryLock(ctx, func() (bool, error) { return true, nil })
		if err != nil || !ok {
			return err
		}
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET seen = ?", self)
	return err
}

func takeJobLock(ctx context.Context, self string) (bool, error) {
	return rdb.SetNX(ctx, "job_lock", self, time.Minute).Result()
}

func retryLock(ctx context.Context, try func() (bool, error)) (bool, error) {
	for range 3 {
		if ok, err := try(); err != nil || ok {
			return ok, err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false, ctx.Err()
}

// Only a Redis error goes on without the lock (a fail-open, lockresult's
// finding); a lock held elsewhere leaves. The truncate is the lock's.
func purgeFailOpen(ctx context.Context) {
	ok, err := rdb.SetNX(ctx, "ops:purge", "1", 30*time.Minute).Result()
	if err != nil {
		log.Printf("purge lock: %v", err)
	} else if !ok {
		return
	} else {
		defer rdb.Del(context.Background(), "ops:purge")
	}
	db.ExecContext(ctx, "TRUNCATE TABLE submits") // want `database/sql DB.ExecContext under lock "ops:purge" \(SET NX\) carries no fencing token`
}

// Near miss: a lock held elsewhere goes on too, so the truncate runs
// whoever holds the lock.
func purgeAnyway(ctx context.Context) {
	ok, err := rdb.SetNX(ctx, "ops:purge", "1", 30*time.Minute).Result()
	if err != nil {
		log.Printf("purge lock: %v", err)
	} else if !ok {
		log.Printf("another purge runs; purging anyway")
	} else {
		defer rdb.Del(context.Background(), "ops:purge")
	}
	db.ExecContext(ctx, "TRUNCATE TABLE submits")
}

// Near miss: the error is the only outcome looked at; a lock held
// elsewhere is not told apart, so nothing says the lock guards the
// truncate.
func purgeErrOnly(ctx context.Context) {
	_, err := rdb.SetNX(ctx, "ops:purge", "1", 30*time.Minute).Result()
	if err != nil {
		log.Printf("purge lock: %v", err)
	}
	db.ExecContext(ctx, "TRUNCATE TABLE submits")
}

// Near miss: the bool is only logged, never tested: a lock held
// elsewhere goes on too.
func purgeOkLogged(ctx context.Context) {
	ok, err := rdb.SetNX(ctx, "ops:purge", "1", 30*time.Minute).Result()
	if err != nil {
		log.Printf("purge lock: %v", err)
	}
	log.Printf("purge lock taken: %v", ok)
	db.ExecContext(ctx, "TRUNCATE TABLE submits")
}
