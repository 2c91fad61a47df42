package lease

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/bsm/redislock"
)

// keepUp refreshes until the lock is lost, and then returns: its return is
// the only word of the loss, and the goroutine that runs it decides who
// hears it.
func keepUp(ctx context.Context, lock *redislock.Lock, ttl time.Duration) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(ttl / 3):
		}
		if err := lock.Refresh(ctx, ttl, nil); errors.Is(err, redislock.ErrNotObtained) {
			return
		} else if err != nil {
			return
		}
	}
}

// The goroutine's deferred cancel runs when keepUp returns: the work,
// which runs on lockCtx, stops.
func keptUpAndCancelled(ctx context.Context, work func(context.Context)) error {
	lock, err := rl.Obtain(ctx, "keepup:told", 5*time.Second, nil)
	if err != nil {
		return err
	}
	lockCtx, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		keepUp(lockCtx, lock, 5*time.Second)
	}()
	work(lockCtx)
	return lock.Release(ctx)
}

// Told after the return, in the next statement.
func keptUpThenCancelled(ctx context.Context, work func(context.Context)) error {
	lock, err := rl.Obtain(ctx, "keepup:after", 5*time.Second, nil)
	if err != nil {
		return err
	}
	lockCtx, cancel := context.WithCancel(ctx)
	go func() {
		keepUp(lockCtx, lock, 5*time.Second)
		cancel()
	}()
	work(lockCtx)
	return lock.Release(ctx)
}

// keepUpQuietly is keepUp for a caller that does not listen.
func keepUpQuietly(ctx context.Context, lock *redislock.Lock, ttl time.Duration) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(ttl / 3):
		}
		if err := lock.Refresh(ctx, ttl, nil); err != nil { // want `this keep-alive renews with redislock Lock.Refresh but drops the outcome`
			return
		}
	}
}

// Nobody hears keepUpQuietly return.
func keptUpSilently(ctx context.Context, work func(context.Context)) error {
	lock, err := rl.Obtain(ctx, "keepup:silent", 5*time.Second, nil)
	if err != nil {
		return err
	}
	go func() {
		keepUpQuietly(ctx, lock, 5*time.Second)
	}()
	work(ctx)
	return lock.Release(ctx)
}

// expireLoop renews a raw lock until EXPIRE finds the key gone.
func expireLoop(ctx context.Context, key string) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		if ok, err := rdb.Expire(ctx, key, 3*time.Second).Result(); err != nil || !ok {
			return
		}
	}
}

func rawKeptUpAndCancelled(ctx context.Context, token string, work func(context.Context)) {
	key := "lock:keepup:raw"
	if ok, _ := rdb.SetNX(ctx, key, token, 3*time.Second).Result(); !ok {
		return
	}
	lockCtx, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		expireLoop(lockCtx, key)
	}()
	work(lockCtx)
	cancel()
}

// expireLoopQuietly is expireLoop for a caller that does not listen.
func expireLoopQuietly(ctx context.Context, key string) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		if ok, err := rdb.Expire(ctx, key, 3*time.Second).Result(); err != nil || !ok {
			return
		}
	}
}

func rawKeptUpSilently(ctx context.Context, token string, work func(context.Context)) {
	key := "lock:keepup:quiet"
	if ok, _ := rdb.SetNX(ctx, key, token, 3*time.Second).Result(); !ok {
		return
	}
	go func() {
		expireLoopQuietly(ctx, key) // want `this keep-alive renews with EXPIRE \(in lease.expireLoopQuietly at keepup.go:\d+\) of lock key but drops the outcome`
	}()
	work(ctx)
}

// Watched runs expireLoopBookkept, which returns when the lock is lost;
// the goroutine's deferred atomic store only records that the watchdog
// stopped: the holder is not told.
type Watched struct{ running int32 }

func expireLoopBookkept(ctx context.Context, key string) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		if ok, err := rdb.Expire(ctx, key, 3*time.Second).Result(); err != nil || !ok {
			return
		}
	}
}

func (w *Watched) Lock(ctx context.Context, token string) bool {
	key := "lock:keepup:bookkept"
	if ok, _ := rdb.SetNX(ctx, key, token, 3*time.Second).Result(); !ok {
		return false
	}
	go func() {
		defer atomic.StoreInt32(&w.running, 0)
		expireLoopBookkept(ctx, key) // want `this keep-alive renews with EXPIRE \(in lease.expireLoopBookkept at keepup.go:\d+\) of lock key but drops the outcome`
	}()
	return true
}

// renewOnce is one step, run on every tick: it returns on success too, so
// its return says nothing, whatever its caller does next. Reported once,
// where the reply is dropped, not again at the call in the loop.
func renewOnce(ctx context.Context, key string) {
	if err := rdb.Expire(ctx, key, 3*time.Second).Err(); err != nil { // want `this keep-alive renews with EXPIRE of lock key but drops the outcome`
		return
	}
}

func stepped(ctx context.Context, token string, cancel context.CancelFunc) {
	key := "lock:keepup:stepped"
	if ok, _ := rdb.SetNX(ctx, key, token, 3*time.Second).Result(); !ok {
		return
	}
	go func() {
		for range time.Tick(time.Second) {
			renewOnce(ctx, key)
			if ctx.Err() != nil {
				cancel()
				return
			}
		}
	}()
}
