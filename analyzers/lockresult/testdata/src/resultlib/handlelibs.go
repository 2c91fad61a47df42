package resultlib

import (
	"context"
	"log"
	"time"

	"github.com/amyangfei/redlock-go/v3/redlock"
	lock "github.com/bsm/redis-lock"
	goredislock "github.com/jefferyjob/go-redislock"
	"github.com/xiaoxuxiansheng/redis_lock"
)

var (
	redlockMgr *redlock.RedLock
	lockClient *redis_lock.Client
)

// go-redislock's Lock fails with an error; dropping it goes on without
// the lock.
func goRedislockDropped(ctx context.Context) {
	l := goredislock.New(nil, "reserve")
	_ = l.Lock(ctx) // want `the error of go-redislock RedisLockInter.Lock is discarded: when the lock is held elsewhere or Redis fails, the code goes on without the lock`
	defer l.UnLock(ctx)
	work()
}

func goRedislockChecked(ctx context.Context) error {
	l := goredislock.New(nil, "reserve")
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.UnLock(ctx)
	work()
	return nil
}

// redlock-go: a failed quorum only logged, then the work.
func redlockLogged(ctx context.Context) {
	_, err := redlockMgr.Lock(ctx, "tasks_returner", 10*time.Second)
	if err != nil { // want `when redlock-go RedLock.Lock fails \(err != nil\), this branch falls through into the code that needs the lock: work\(...\) runs without it`
		log.Print(err)
	}
	work()
	_ = redlockMgr.UnLock(ctx, "tasks_returner")
}

func redlockChecked(ctx context.Context) error {
	if _, err := redlockMgr.Lock(ctx, "tasks_returner", 10*time.Second); err != nil {
		return err
	}
	work()
	return redlockMgr.UnLock(ctx, "tasks_returner")
}

// bsm/redis-lock's Lock answers a held key with (false, nil).
func bsmOldErrOnly() error {
	l := lock.New(nil, "cron", nil)
	if _, err := l.Lock(); err != nil { // want `only the error of bsm/redis-lock Locker.Lock is checked: a lock held by someone else comes back as false with a nil error`
		return err
	}
	defer l.Unlock()
	work()
	return nil
}

func bsmOldChecked() error {
	l := lock.New(nil, "cron", nil)
	ok, err := l.Lock()
	if err != nil || !ok {
		return err
	}
	defer l.Unlock()
	work()
	return nil
}

// Obtain (v8) fails with ErrLockNotObtained: the error is the signal.
func bsmOldObtain() error {
	l, err := lock.Obtain(nil, "cron", nil)
	if err != nil {
		return err
	}
	defer l.Unlock()
	work()
	return nil
}

// redis_lock's Lock fails with an error.
func xiaoxuDropped(ctx context.Context) {
	l := redis_lock.NewRedisLock("ring", lockClient)
	l.Lock(ctx) // want `the error of redis_lock RedisLock.Lock is discarded`
	defer l.Unlock(ctx)
	work()
}

func queueReturn() int { return 0 }

// A worker loop's shape: both outcomes only logged, then the work.
func redlockLoggedElse(ctx context.Context) {
	_, err := redlockMgr.Lock(ctx, "tasks_returner", 15*time.Second)
	if err != nil { // want `when redlock-go RedLock.Lock fails \(err != nil\), this branch falls through into the code that needs the lock: queueReturn\(...\) runs without it`
		log.Printf("busy: %v", err)
	} else {
		log.Print("took the lock")
	}
	queueReturn()
	_ = redlockMgr.UnLock(ctx, "tasks_returner")
}

// The else does the work: what follows runs on both outcomes.
func redlockWorkInElse(ctx context.Context) {
	_, err := redlockMgr.Lock(ctx, "tasks_returner", 15*time.Second)
	if err != nil {
		log.Printf("busy: %v", err)
	} else {
		queueReturn()
		_ = redlockMgr.UnLock(ctx, "tasks_returner")
	}
	work()
}
