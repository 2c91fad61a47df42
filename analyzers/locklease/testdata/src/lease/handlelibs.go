package lease

import (
	"context"
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

// bsm/redis-lock keeps its key 5 s when no LockTimeout is given, and
// never renews it.
func bsmOldDefault() error {
	l, err := lock.Obtain(nil, "report", nil)
	if err != nil {
		return err
	}
	defer l.Unlock()
	time.Sleep(6 * time.Second) // want `time.Sleep\(6s\) can outlive lock "report" \(bsm/redis-lock Obtain\): the lock's TTL is 5s and nothing renews it`
	return nil
}

func bsmOldLongTimeout() error {
	l := lock.New(nil, "report", &lock.Options{LockTimeout: time.Minute})
	if ok, err := l.Lock(); err != nil || !ok {
		return err
	}
	defer l.Unlock()
	time.Sleep(6 * time.Second)
	return nil
}

// go-redislock: WithTimeout sets the TTL; WithAutoRenew renews it.
func goRedislockShort(ctx context.Context) error {
	l := goredislock.New(nil, "sync", goredislock.WithTimeout(2*time.Second))
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.UnLock(ctx)
	time.Sleep(3 * time.Second) // want `time.Sleep\(3s\) can outlive lock "sync" \(go-redislock RedisLockInter.Lock\): the lock's TTL is 2s and nothing renews it`
	return nil
}

func goRedislockRenewed(ctx context.Context) error {
	l := goredislock.New(nil, "sync", goredislock.WithTimeout(2*time.Second), goredislock.WithAutoRenew())
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.UnLock(ctx)
	time.Sleep(3 * time.Second)
	return nil
}

// redis_lock: a watchdog renews the key unless WithExpireSeconds sets
// its TTL.
func xiaoxuWatchdog(ctx context.Context) error {
	l := redis_lock.NewRedisLock("ring", lockClient)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	time.Sleep(time.Minute)
	return nil
}

func xiaoxuFixed(ctx context.Context) error {
	l := redis_lock.NewRedisLock("ring", lockClient, redis_lock.WithExpireSeconds(15))
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	time.Sleep(20 * time.Second) // want `time.Sleep\(20s\) can outlive lock "ring" \(redis_lock RedisLock.Lock\): the lock's TTL is 15s and nothing renews it`
	return nil
}

// redlock-go takes its TTL at the acquire.
func redlockShort(ctx context.Context) error {
	if _, err := redlockMgr.Lock(ctx, "agent", time.Second); err != nil {
		return err
	}
	time.Sleep(2 * time.Second) // want `time.Sleep\(2s\) can outlive lock "agent" \(redlock-go RedLock.Lock\): the lock's TTL is 1s and nothing renews it`
	return redlockMgr.UnLock(ctx, "agent")
}
