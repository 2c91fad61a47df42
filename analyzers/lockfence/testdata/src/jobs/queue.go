package jobs

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"jobqueue"
)

var (
	queueLocks *redislock.Client
	queue      *jobqueue.Queue
	queueRdb   *redis.Client
)

// The job lock guards the job's state, kept in Redis structures by
// another package's helper without expiry: a stale holder's late
// Complete lands over the next holder's run.
func finishJob(ctx context.Context, id string) error {
	lock, err := queueLocks.Obtain(ctx, "job:"+id+":lock", 30*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return queue.Complete(ctx, id) // want `queue.Complete \(Redis LREM at jobqueue.go:\d+\) under lock "job:" \+ id \+ ":lock" \(redislock Client.Obtain\) carries no fencing token`
}

// Near misses: a structure that expires, a counter, and a sorted set
// named as statistics are not records.
func viewJob(ctx context.Context, id, view string) error {
	lock, err := queueLocks.Obtain(ctx, "job:"+id+":lock", 30*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return queue.Snapshot(ctx, id, view)
}

func countJob(ctx context.Context, id, kind string, ms float64) error {
	lock, err := queueLocks.Obtain(ctx, "job:"+id+":lock", 30*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := queue.CountDone(ctx, kind); err != nil {
		return err
	}
	return queue.RecordStats(ctx, id, ms)
}

// refreshIndex is a Redis helper of this package named like a lock
// operation (refresh): lockfence judges this package's Redis helpers by
// its own rules for them, names included, not as records.
func refreshIndex(ctx context.Context, id string) error {
	return queueRdb.LPush(ctx, "jobs:index", id).Err()
}

func leaveJob(ctx context.Context, id string) error {
	lock, err := queueLocks.Obtain(ctx, "job:"+id+":lock", 30*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return refreshIndex(ctx, id)
}
