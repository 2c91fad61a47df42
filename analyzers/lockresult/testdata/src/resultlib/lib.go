// Package resultlib uses lock libraries; it imports no Redis client itself.
package resultlib

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/locklint/locklint/safelock"
	"github.com/redis/rueidis/rueidislock"
)

func work() {}

type Jobs struct {
	locker *safelock.Locker
	rs     *redsync.Redsync
	rl     *redislock.Client
	rul    rueidislock.Locker
}

func (j *Jobs) safelockDiscarded(ctx context.Context) {
	j.locker.TryAcquire(ctx, "job", time.Minute) // want `the error of safelock Locker.TryAcquire is discarded: when the lock is held elsewhere or Redis fails, the code goes on without the lock; check the error and stop on failure \(errors.Is\(err, safelock.ErrNotAcquired\) when another owner holds it\)`
	work()
}

func (j *Jobs) safelockBlankErr(ctx context.Context) error {
	lease, _ := j.locker.Acquire(ctx, "job", time.Minute) // want `the error of safelock Locker.Acquire is discarded and the lock it returns is never checked for nil`
	defer lease.Release(ctx)
	work()
	return nil
}

func (j *Jobs) safelockFallsThrough(ctx context.Context) {
	lease, err := j.locker.TryAcquire(ctx, "job", time.Minute)
	if errors.Is(err, safelock.ErrNotAcquired) { // want `when safelock Locker.TryAcquire fails \(errors.Is\(err, safelock.ErrNotAcquired\)\), this branch falls through into the code that needs the lock: work\(...\) runs without it; stop on failure \(return, continue\)$`
		log.Println("busy")
	}
	work()
	if lease != nil {
		lease.Release(ctx)
	}
}

func (j *Jobs) redsyncDiscarded() {
	m := j.rs.NewMutex("job")
	m.Lock() // want `the error of redsync Mutex.Lock is discarded: when the lock is held elsewhere or Redis fails, the code goes on without the lock; check the error and stop on failure, or use safelock.Locker.TryAcquire`
	defer m.Unlock()
	work()
}

func (j *Jobs) redsyncBlank(ctx context.Context) {
	m := j.rs.NewMutex("job")
	_ = m.LockContext(ctx) // want `the error of redsync Mutex.LockContext is discarded`
	defer m.Unlock()
	work()
}

func (j *Jobs) redsyncLogged() {
	m := j.rs.NewMutex("job")
	if err := m.Lock(); err != nil { // want `when redsync Mutex.Lock fails \(err != nil\), this branch falls through into the code that needs the lock: work\(...\) runs without it`
		log.Printf("lock failed: %v", err)
	}
	defer m.Unlock()
	work()
}

func (j *Jobs) redislockDiscarded(ctx context.Context) {
	lock, _ := j.rl.Obtain(ctx, "job", time.Minute, nil) // want `the error of redislock Client.Obtain is discarded and the lock it returns is never checked for nil`
	defer lock.Release(ctx)
	work()
}

func (j *Jobs) rueidislockDiscarded(ctx context.Context) {
	lctx, cancel, _ := j.rul.WithContext(ctx, "job") // want `the error of rueidislock Locker.WithContext is discarded`
	defer cancel()
	_ = lctx
	work()
}

// The shape of a well-known README: the "not obtained" branch only
// prints, and the code below runs without the lock.
func (j *Jobs) obtainPrinted(ctx context.Context) {
	lock, err := j.rl.Obtain(ctx, "my-key", 100*time.Millisecond, nil)
	if err == redislock.ErrNotObtained { // want `when redislock Client.Obtain fails \(err == redislock.ErrNotObtained\), this branch falls through into the code that needs the lock: work\(...\) runs without it`
		log.Println("Could not obtain lock!")
	} else if err != nil {
		log.Fatalln(err)
	}
	defer lock.Release(ctx)
	work()
}
