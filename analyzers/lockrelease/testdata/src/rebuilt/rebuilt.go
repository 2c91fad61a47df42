// Package rebuilt is a scheduler's locker whose handle keeps only the
// job's name and rebuilds the full key, prefix and name, where it
// unlocks.
package rebuilt

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type options struct {
	KeyPrefix   string
	StatsPrefix string
	TTL         time.Duration
}

type locker struct {
	rdb     *redis.Client
	options options
}

type jobLock struct {
	locker *locker
	key    string
}

var errBusy = errors.New("job is running elsewhere")

func (r *locker) Lock(ctx context.Context, key string) (*jobLock, error) {
	fullKey := r.options.KeyPrefix + key
	ok, err := r.rdb.SetNX(ctx, fullKey, uuid.NewString(), r.options.TTL).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errBusy
	}
	return &jobLock{locker: r, key: key}, nil
}

func (l *jobLock) Unlock(ctx context.Context) error {
	fullKey := l.locker.options.KeyPrefix + l.key
	return l.locker.rdb.Del(ctx, fullKey).Err() // want `lock fullKey is deleted with DEL without checking`
}

// ResetStats deletes a key with the handle's name under another prefix:
// the job's statistics, not its lock.
func (l *jobLock) ResetStats(ctx context.Context) error {
	return l.locker.rdb.Del(ctx, l.locker.options.StatsPrefix+l.key).Err()
}
