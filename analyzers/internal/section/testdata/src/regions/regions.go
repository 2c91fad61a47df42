package regions

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/gomodule/redigo/redis"
	"github.com/locklint/locklint/safelock"
	goredis "github.com/redis/go-redis/v9"
)

var (
	rdb    = goredis.NewClient(&goredis.Options{})
	rs     = redsync.New()
	rl     = redislock.New(rdb)
	locker = safelock.New(rdb)
)

func held() {}
func free() {}

func ifInit(ctx context.Context) {
	if ok, err := rdb.SetNX(ctx, "k1", "v", time.Second).Result(); err != nil || !ok {
		free()
		return
	}
	held() // want `held in lock "k1" \(SET NX\) ttl=1s`
	rdb.Del(ctx, "k1")
	free()
}

func elseBranch(ctx context.Context) {
	if rdb.SetNX(ctx, "k2", "v", 2*time.Second).Val() {
		held() // want `held in lock "k2" \(SET NX\) ttl=2s`
		rdb.Del(ctx, "k2")
	} else {
		free()
	}
	free()
}

func taglessSwitch(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, "k3", "v", time.Second).Result()
	switch {
	case err != nil:
		free()
		return err
	case !ok:
		free()
		return nil
	}
	defer rdb.Del(ctx, "k3")
	held() // want `held in lock "k3" \(SET NX\) ttl=1s`
	return nil
}

func retryLoop(ctx context.Context) {
	for {
		ok, err := rdb.SetNX(ctx, "k4", "v", time.Second).Result()
		if err != nil {
			free()
			return
		}
		if ok {
			break
		}
		free()
		time.Sleep(time.Millisecond)
	}
	held() // want `held in lock "k4" \(SET NX\) ttl=1s`
	rdb.Del(ctx, "k4")
	free()
}

// Reassigned err: later conditions are about something else.
func reassigned(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, "k5", "v", time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "k5")
	_, err = rdb.Get(ctx, "data").Result()
	if err != nil {
		held() // want `held in lock "k5" \(SET NX\) ttl=1s`
	}
	return err
}

func redigoReply() {
	c := (&redis.Pool{}).Get()
	reply, err := c.Do("SET", "k6", "v", "NX", "EX", 3)
	if err != nil || reply == nil {
		free()
		return
	}
	held() // want `held in lock "k6" \(SET NX\) ttl=3s`
	c.Do("DEL", "k6")
}

func libs(ctx context.Context) error {
	mu := rs.NewMutex("m", redsync.WithExpiry(4*time.Second))
	if err := mu.Lock(); err != nil {
		free()
		return err
	}
	held() // want `held in lock "m" \(redsync Mutex.Lock\) ttl=4s`
	mu.Unlock()
	free()

	lock, err := rl.Obtain(ctx, "r", 5*time.Second, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		free()
		return nil
	}
	defer lock.Release(ctx)
	held() // want `held in lock "r" \(redislock Client.Obtain\) ttl=5s`

	lease, err := locker.TryAcquire(ctx, "s", 6*time.Second)
	if lease == nil {
		free() // want `free in lock "r" \(redislock Client.Obtain\) ttl=5s`
		return err
	}
	held() // want `held in lock "s" \(safelock Locker.TryAcquire\) ttl=6s` `held in lock "r" \(redislock Client.Obtain\) ttl=5s`
	if err := lease.Release(ctx); err != nil {
		return err
	}
	free() // want `free in lock "r" \(redislock Client.Obtain\) ttl=5s`
	return nil
}

func do(ctx context.Context) error {
	free()
	return locker.Do(ctx, "d", 7*time.Second, func(ctx context.Context, l *safelock.Lease) error {
		held() // want `held in lock "d" \(safelock Locker.Do\) ttl=7s`
		return nil
	})
}

// The key goes to a func value that may release the lock.
func opaque(ctx context.Context, unlock func(string)) {
	if !rdb.SetNX(ctx, "k7", "v", time.Second).Val() {
		return
	}
	held() // want `held in lock "k7" \(SET NX\) ttl=1s`
	unlock("k7")
	free()
}

func releaseK7(ctx context.Context) { rdb.Del(ctx, "k7") }
