package cronjobs

import (
	"context"

	"counter"
)

type jobLocker struct{ store counter.Store }

// The first pod to count to 1 runs the job: a lock taken with INCR
// through the project's client, whose count is the same for every holder.
func (l *jobLocker) IsLocked(key string) bool {
	n, _ := l.store.Incr(context.Background(), key)
	return n > 1
}

func (l *jobLocker) Unlock(key string) {
	_ = l.store.Del(context.Background(), key) // want `lock key is deleted with DEL \(in Store.Del at counter.go:32\) without checking that this holder still owns it`
}

// Near miss: the same client counting requests against a limit.
func (l *jobLocker) Allow(ctx context.Context, user string) bool {
	n, err := l.store.Incr(ctx, "requests:"+user)
	return err == nil && n <= 100
}
