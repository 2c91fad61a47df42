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
