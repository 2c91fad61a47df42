package lease

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

var (
	rdb  = goredis.NewClient(&goredis.Options{})
	db   *sql.DB
	pool = &redis.Pool{}
)

const lockTTL = 10 * time.Second

func sleepPastTTL(ctx context.Context, token string) {
	if !rdb.SetNX(ctx, "lock:sync", token, lockTTL).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:sync")
	time.Sleep(time.Minute) // want `time.Sleep\(1m0s\) can outlive lock "lock:sync" \(SET NX\): the lock's TTL is 10s and nothing renews it.*safelock.Locker.Do`
}

// Near miss: the client's Timeout bounds the call; it may answer at once.
func httpPastTTL(ctx context.Context, req *http.Request, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:partner", token, 5*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:partner")
	client := &http.Client{Timeout: 30 * time.Second}
	_, err = client.Do(req)
	return err
}

// Near miss: the timeout set before the acquire bounds a call in the
// section; the call may end at once.
func timeoutBefore(ctx context.Context, token string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if ok, _ := rdb.SetNX(ctx, "lock:report", token, 30*time.Second).Result(); !ok {
		return nil
	}
	defer rdb.Del(ctx, "lock:report")
	_, err := db.ExecContext(ctx, "CALL build_report()")
	return err
}

func redigoPastTTL(token string) {
	conn := pool.Get()
	defer conn.Close()
	if _, err := redis.String(conn.Do("SET", "lock:batch", token, "NX", "PX", 5000)); err != nil {
		return
	}
	time.Sleep(10 * time.Second) // want `time.Sleep\(10s\) can outlive lock "lock:batch" \(SET NX\): the lock's TTL is 5s`
	conn.Do("DEL", "lock:batch")
	time.Sleep(time.Minute) // after the release
}

// Short waits, unknown durations, waits on the failure branch.
func negatives(ctx context.Context, token string, ttl, d time.Duration) {
	for !rdb.SetNX(ctx, "lock:short", token, lockTTL).Val() {
		time.Sleep(time.Minute) // retry, not in the section
	}
	time.Sleep(time.Second)
	time.Sleep(d)
	rdb.Del(ctx, "lock:short")

	if !rdb.SetNX(ctx, "lock:var", token, ttl).Val() {
		return
	}
	time.Sleep(time.Minute) // the TTL is not a constant
	rdb.Del(ctx, "lock:var")
}

// A goroutine renews the lock while the work runs.
func renewed(ctx context.Context, token string) {
	if !rdb.SetNX(ctx, "lock:renewed", token, lockTTL).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:renewed")
	go func() {
		for range time.Tick(3 * time.Second) {
			rdb.PExpire(ctx, "lock:renewed", lockTTL) // want `this keep-alive renews with PEXPIRE of lock "lock:renewed" but drops the outcome`
		}
	}()
	time.Sleep(time.Minute)
}

// withLock runs fn under a 2s lock; the callbacks passed to it are
// sections.
func withLock(ctx context.Context, key string, fn func()) {
	if !rdb.SetNX(ctx, key, "t", 2*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, key)
	fn()
}

func useWrapper(ctx context.Context) {
	withLock(ctx, "lock:wrapped", func() {
		time.Sleep(5 * time.Second) // want `time.Sleep\(5s\) can outlive lock "lock:wrapped" \(SET NX in lease.withLock\): the lock's TTL is 2s`
	})
	withLock(ctx, "lock:wrapped", func() {
		time.Sleep(time.Second)
	})
}

