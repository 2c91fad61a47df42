package cronjobs

import (
	"context"

	"github.com/redis/go-redis/v9"

	"counter"
)

type jobLocker struct {
	store counter.Store
	rdb   *redis.Client
}

// The count's error is thrown away: on a Redis error the client answers
// -1, -1 > 1 is false, and the job runs as if the lock were free.
func (l *jobLocker) IsLocked(key string) bool {
	n, _ := l.store.Incr(context.Background(), key) // want `the error of the INCR that takes lock key is discarded`
	return n > 1
}

func (l *jobLocker) Unlock(key string) {
	_ = l.store.Del(context.Background(), key)
}

// The same with go-redis's Val, which reads 0 on an error.
func (l *jobLocker) TryLock(ctx context.Context, job string) bool {
	n := l.rdb.Incr(ctx, "lock:job:"+job).Val() // want `the error of the INCR that takes lock "lock:job:" \+ job is discarded`
	return n <= 1
}

func (l *jobLocker) ReleaseJob(ctx context.Context, job string) {
	l.rdb.Del(ctx, "lock:job:"+job)
}

// Near misses: an answer that a count of 0 or -1 turns into "held"
// fails closed, and a checked error says the acquire failed.
func (l *jobLocker) Busy(key string) bool {
	n, _ := l.store.Incr(context.Background(), "busy:lock:"+key)
	return n != 1
}

func (l *jobLocker) ReleaseBusy(key string) {
	_ = l.store.Del(context.Background(), "busy:lock:"+key)
}

func (l *jobLocker) Locked(ctx context.Context, key string) (bool, error) {
	n, err := l.store.Incr(ctx, "checked:lock:"+key)
	if err != nil {
		return true, err
	}
	return n > 1, nil
}

func (l *jobLocker) UnlockChecked(ctx context.Context, key string) {
	_ = l.store.Del(ctx, "checked:lock:"+key)
}
