// Package jobqueue keeps jobs in Redis structures, in another package
// than the worker that locks them.
package jobqueue

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Queue struct{ rdb *redis.Client }

// Complete moves the job out of the processing list and records its
// state in its hash, with no expiry: the state of record.
func (q *Queue) Complete(ctx context.Context, id string) error {
	if err := q.rdb.LRem(ctx, "jobs:processing", 1, id).Err(); err != nil {
		return err
	}
	if err := q.rdb.HSet(ctx, "job:"+id, "status", "done").Err(); err != nil {
		return err
	}
	return q.rdb.LPush(ctx, "jobs:done", id).Err()
}

// Snapshot stores a view of the job that expires: taken for a cache.
func (q *Queue) Snapshot(ctx context.Context, id, view string) error {
	if err := q.rdb.HSet(ctx, "job:view:"+id, "v", view).Err(); err != nil {
		return err
	}
	return q.rdb.Expire(ctx, "job:view:"+id, time.Minute).Err()
}

// CountDone counts finished jobs per type: a late increment adds what it
// would have added anyway.
func (q *Queue) CountDone(ctx context.Context, kind string) error {
	return q.rdb.HIncrBy(ctx, "jobs:done:by-type", kind, 1).Err()
}

// RecordStats keeps a sorted set of durations, named as statistics.
func (q *Queue) RecordStats(ctx context.Context, id string, ms float64) error {
	return q.rdb.ZAdd(ctx, "jobs:durations", redis.Z{Score: ms, Member: id}).Err()
}
