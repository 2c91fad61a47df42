package fence

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

// bsm/redis-lock v8: the lock object's Lock answers (ok, err).
func bsmOldLocker(ctx context.Context, id string) error {
	l := lock.New(rdb, "pay:"+id, &lock.Options{LockTimeout: 10 * time.Second})
	ok, err := l.Lock()
	if err != nil || !ok {
		return err
	}
	defer l.Unlock()
	_, err = db.ExecContext(ctx, "UPDATE payments SET state = 'sent' WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "pay:" \+ id \(bsm/redis-lock Locker.Lock\) carries no fencing token`
	return err
}

// Obtain hands back the lock; the write after Unlock is not under it.
func bsmOldObtain(ctx context.Context, id string) error {
	l, err := lock.Obtain(rdb, "pay:"+id, nil)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE payments SET seen = 1 WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "pay:" \+ id \(bsm/redis-lock Obtain\) carries no fencing token`
	if err := l.Unlock(); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE payments SET audited = 1 WHERE id = ?", id)
	return err
}

// Run's handler is the section.
func bsmOldRun(ctx context.Context, id string) error {
	return lock.Run(rdb, "pay:"+id, nil, func() {
		db.ExecContext(ctx, "DELETE FROM holds WHERE payment = ?", id) // want `database/sql DB.ExecContext under lock "pay:" \+ id \(bsm/redis-lock Run\) carries no fencing token`
	})
}

// redlock-go gives a lock back by its name: UnLock of the same resource
// ends the section, UnLock of another does not.
func redlockGo(ctx context.Context, id string) error {
	if _, err := redlockMgr.Lock(ctx, "agent:"+id, 30*time.Second); err != nil {
		return err
	}
	_ = redlockMgr.UnLock(ctx, "other:"+id)
	_, err := db.ExecContext(ctx, "UPDATE agents SET state = 'run' WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "agent:" \+ id \(redlock-go RedLock.Lock\) carries no fencing token`
	_ = redlockMgr.UnLock(ctx, "agent:"+id)
	_, _ = db.ExecContext(ctx, "UPDATE agents SET state = 'idle' WHERE id = ?", id)
	return err
}

// go-redislock: New names the key, Lock takes it.
func goRedislock(ctx context.Context, sku string) error {
	l := goredislock.New(rdb, "stock:"+sku, goredislock.WithTimeout(10*time.Second))
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.UnLock(ctx)
	return rdb.Set(ctx, sku+"_stock", 9, 0).Err() // want `Redis SET under lock "stock:" \+ sku \(go-redislock RedisLockInter.Lock\) carries no fencing token`
}

// A read under the lock, the write after UnLock: nothing to fence.
func goRedislockAfter(ctx context.Context, sku string) error {
	l := goredislock.New(rdb, "stock:"+sku)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	n, err := rdb.Get(ctx, sku+"_stock").Int()
	if err != nil {
		return err
	}
	if err := l.UnLock(ctx); err != nil {
		return err
	}
	return rdb.Set(ctx, sku+"_seen", n, 0).Err()
}

// xiaoxuxiansheng/redis_lock: NewRedisLock(key, client).
func xiaoxuLock(ctx context.Context, tx string) error {
	l := redis_lock.NewRedisLock("tx:"+tx, lockClient)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	_, err := db.ExecContext(ctx, "UPDATE tx SET status = 'confirmed' WHERE id = ?", tx) // want `database/sql DB.ExecContext under lock "tx:" \+ tx \(redis_lock RedisLock.Lock\) carries no fencing token`
	return err
}

// The library's own client stores the application's data: a SET with no
// expiry through it is a write like any other (its package's name says
// nothing about the keys it writes); a key named as a cache is not.
func xiaoxuClientData(ctx context.Context, tx string) error {
	l := redis_lock.NewRedisLock("tx:"+tx, lockClient)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	if _, err := lockClient.Set(ctx, "tx:status:"+tx, "tried"); err != nil { // want `lockClient.Set \(Redis SET at lock.go:\d+\) under lock "tx:" \+ tx \(redis_lock RedisLock.Lock\) carries no fencing token`
		return err
	}
	_, err := lockClient.Set(ctx, "cache:tx:"+tx, "tried")
	return err
}
