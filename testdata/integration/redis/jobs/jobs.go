// Package jobs is sample code for locklint's end-to-end tests: lock bugs
// written the way real projects write them. A trailing "want NAME" marks a
// line every driver reports (NAME,NAME for several); "want-standalone NAME"
// one that only locklint and go vet report, because golangci-lint honours
// the //nolint on it.
package jobs

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockTTL = 30 * time.Second

// Worker runs jobs one at a time across processes.
type Worker struct {
	rdb *redis.Client
}

// TryLock takes the lock, then gives it a TTL in a second round trip: a
// crash between the two leaves a lock that never expires.
func (w *Worker) TryLock(ctx context.Context, job string) (bool, error) {
	key := "lock:" + job
	ok, err := w.rdb.SetNX(ctx, key, "1", 0).Result() // want lockexpiry,lockvalue
	if err != nil || !ok {
		return false, err
	}
	return true, w.rdb.Expire(ctx, key, lockTTL).Err()
}

// Acquire has the same bug in a shape locklint can fix: the TTL moves into
// SetNX and the Expire goes.
func (w *Worker) Acquire(ctx context.Context, key, token string) bool {
	ok := w.rdb.SetNX(ctx, key, token, 0).Val() // want lockexpiry
	w.rdb.Expire(ctx, key, lockTTL)             // want lockrenew
	return ok
}

// AcquireIgnored is the same bug, acknowledged for locklint.
func (w *Worker) AcquireIgnored(ctx context.Context, key, token string) bool {
	//locklint:ignore lockexpiry sample code kept to show suppression
	ok := w.rdb.SetNX(ctx, key, token, 0).Val()
	w.rdb.Expire(ctx, key, lockTTL) // want lockrenew
	return ok
}

// AcquireNolint is the same bug, acknowledged for golangci-lint only.
func (w *Worker) AcquireNolint(ctx context.Context, key, token string) bool {
	ok := w.rdb.SetNX(ctx, key, token, 0).Val() //nolint:lockexpiry // sample; want-standalone lockexpiry
	w.rdb.Expire(ctx, key, lockTTL)             // want lockrenew
	return ok
}

// Unlock deletes the lock without checking who holds it.
func (w *Worker) Unlock(ctx context.Context, job string) error {
	return w.rdb.Del(ctx, "lock:"+job).Err() // want lockrelease
}

// UnlockIgnored is the same bug, acknowledged.
func (w *Worker) UnlockIgnored(ctx context.Context, job string) error {
	//locklint:ignore lockrelease sample code kept to show suppression
	return w.rdb.Del(ctx, "lock:"+job).Err()
}

// Extend renews the lock without checking who holds it.
func (w *Worker) Extend(ctx context.Context, job string) error {
	return w.rdb.Expire(ctx, "lock:"+job, lockTTL).Err() // want lockrenew
}

// Report runs the job whether or not it got the lock.
func (w *Worker) Report(ctx context.Context, id, token string, job func()) {
	w.rdb.SetNX(ctx, "lock:report:"+id, token, time.Minute) // want lockresult
	job()
}

// Hold keeps the lock for 30 nanoseconds, not 30 seconds.
func (w *Worker) Hold(ctx context.Context, key, token string) (bool, error) {
	return w.rdb.SetNX(ctx, key, token, 30).Result() // want lockunits
}
