// Package jobs takes a per-job lock in one method and releases it in
// another; both name the key through a helper that also returns an
// error.
package jobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type Job struct {
	ID, Kind string
	Args     []byte
}

type Queue struct{ rdb *redis.Client }

func (q *Queue) lockKey(j *Job) (string, error) {
	if j.Kind == "" {
		return "", errors.New("job without a kind")
	}
	sum := sha256.Sum256(j.Args)
	return "jobs:lock:" + j.Kind + ":" + hex.EncodeToString(sum[:]), nil
}

func (q *Queue) resultKey(j *Job) (string, error) {
	if j.ID == "" {
		return "", errors.New("job without an id")
	}
	return "jobs:result:" + j.ID, nil
}

var errBusy = errors.New("an identical job holds the lock")

func (q *Queue) Start(ctx context.Context, j *Job) error {
	key, err := q.lockKey(j)
	if err != nil {
		return err
	}
	ok, err := q.rdb.SetNX(ctx, key, j.ID, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (q *Queue) Finish(ctx context.Context, j *Job) error {
	key, err := q.lockKey(j)
	if err != nil {
		return err
	}
	return q.rdb.Unlink(ctx, key).Err() // want `lock key is deleted with UNLINK without checking`
}

// Forget deletes the job's cached result, a key no NX ever took: not a
// release.
func (q *Queue) Forget(ctx context.Context, j *Job) error {
	key, err := q.resultKey(j)
	if err != nil {
		return err
	}
	return q.rdb.Del(ctx, key).Err()
}

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// Abandon releases the same lock only if this job still holds it.
func (q *Queue) Abandon(ctx context.Context, j *Job) error {
	key, err := q.lockKey(j)
	if err != nil {
		return err
	}
	return release.Run(ctx, q.rdb, []string{key}, j.ID).Err()
}
