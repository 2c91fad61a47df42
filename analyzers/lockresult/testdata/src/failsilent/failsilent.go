// Package failsilent has acquire functions with no results: a failure
// they only log cannot reach their callers.
package failsilent

import (
	"context"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis/rueidislock"
)

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// Adapter keeps each key's lock for Release, as a sync.Mutex-like API.
type Adapter struct {
	locker *redislock.Client
	mu     sync.Mutex
	locks  map[string]*redislock.Lock
	rdb    *redis.Client
	held   bool
}

func (a *Adapter) Acquire(ctx context.Context, key string) {
	lock, err := a.locker.Obtain(ctx, key, time.Minute, nil) // want `Acquire returns nothing, so when redislock Client.Obtain fails`
	if err == redislock.ErrNotObtained {
		log.Printf("could not obtain %s", key)
		return
	} else if err != nil {
		start := time.Now()
		log.Printf("obtain %s: %v after %v", key, err, time.Since(start))
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.locks[key] = lock
}

func (a *Adapter) Release(ctx context.Context, key string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if l, ok := a.locks[key]; ok {
		_ = l.Release(ctx)
	}
}

// LockKey takes a raw SET NX lock and keeps nothing but the key.
func (a *Adapter) LockKey(ctx context.Context, key, token string) {
	ok, err := a.rdb.SetNX(ctx, "lock:"+key, token, time.Minute).Result() // want `LockKey returns nothing, so when SetNX fails`
	if err != nil {
		log.Print(err)
		return
	}
	if !ok {
		log.Print("busy")
	}
}

func (a *Adapter) UnlockKey(ctx context.Context, key, token string) {
	release.Run(ctx, a.rdb, []string{"lock:" + key}, token)
}

// Near miss: a job that takes the lock and gives it back itself; its
// failure return skips the work.
func (a *Adapter) LockAndSweep(ctx context.Context) {
	lock, err := a.locker.Obtain(ctx, "sweep", time.Minute, nil)
	if err != nil {
		log.Print(err)
		return
	}
	defer lock.Release(ctx)
	sweep()
}

// Near miss: the failure is kept where callers look.
func (a *Adapter) AcquireFlagged(ctx context.Context, key string) {
	lock, err := a.locker.Obtain(ctx, key, time.Minute, nil)
	if err != nil {
		log.Print(err)
		a.held = false
		return
	}
	a.held = true
	a.locks[key] = lock
}

// Near miss: a failure ends the program.
func (a *Adapter) AcquireOrDie(ctx context.Context, key string) {
	lock, err := a.locker.Obtain(ctx, key, time.Minute, nil)
	if err != nil {
		log.Fatal(err)
	}
	a.locks[key] = lock
}

// Near miss: the failure is handed to a callback.
func (a *Adapter) AcquireNotify(ctx context.Context, key string, onFail func(error)) {
	lock, err := a.locker.Obtain(ctx, key, time.Minute, nil)
	if err != nil {
		onFail(err)
		return
	}
	a.locks[key] = lock
}

// Near miss: an election tick keeps its outcome in a bool field that
// callers ask (IsLeader); a Redis error leaves it as it was.
type Elector struct {
	rdb      *redis.Client
	id       string
	isLeader bool
}

func (e *Elector) tryAcquireOrRenew(ctx context.Context) {
	ok, err := e.rdb.SetNX(ctx, "leader:lock", e.id, time.Minute).Result()
	if err != nil {
		log.Print(err)
		return
	}
	e.isLeader = ok
}

func (e *Elector) IsLeader() bool { return e.isLeader }

func (e *Elector) Resign(ctx context.Context) {
	release.Run(ctx, e.rdb, []string{"leader:lock"}, e.id)
}

func sweep() {}

// Near miss: the same tick keeping its outcome in an int32 flag through
// sync/atomic.
type AtomicElector struct {
	rdb      *redis.Client
	id       string
	isLeader int32
}

func (e *AtomicElector) tryAcquire(ctx context.Context) {
	ok, err := e.rdb.SetNX(ctx, "leader:lock:2", e.id, time.Minute).Result()
	if err != nil {
		log.Print(err)
		return
	}
	if ok {
		atomic.StoreInt32(&e.isLeader, 1)
	}
}

func (e *AtomicElector) IsLeader() bool { return atomic.LoadInt32(&e.isLeader) == 1 }

func (e *AtomicElector) Resign(ctx context.Context) {
	release.Run(ctx, e.rdb, []string{"leader:lock:2"}, e.id)
}

// Near miss: the tick keeps its outcome through a setter that swaps an
// atomic flag (and tells subscribers).
type SetterElector struct {
	rdb      *redis.Client
	id       string
	isLeader atomic.Bool
}

func (e *SetterElector) tryAcquire(ctx context.Context) {
	ok, err := e.rdb.SetNX(ctx, "leader:lock:3", e.id, time.Minute).Result()
	if err != nil {
		log.Print(err)
		e.setLeader(false)
		return
	}
	e.setLeader(ok)
}

func (e *SetterElector) setLeader(now bool) {
	if e.isLeader.Swap(now) != now {
		log.Printf("leader: %v", now)
	}
}

func (e *SetterElector) IsLeader() bool { return e.isLeader.Load() }

func (e *SetterElector) Resign(ctx context.Context) {
	release.Run(ctx, e.rdb, []string{"leader:lock:3"}, e.id)
}

// A helper of the package that only logs keeps no status: still reported.
type LoggingElector struct {
	rdb *redis.Client
	id  string
}

func (e *LoggingElector) tryAcquire(ctx context.Context) {
	ok, err := e.rdb.SetNX(ctx, "leader:lock:4", e.id, time.Minute).Result() // want `tryAcquire returns nothing, so when SetNX fails`
	if err != nil {
		e.logf("acquire: %v", err)
		return
	}
	if ok {
		e.logf("leader")
	}
}

func (e *LoggingElector) logf(format string, args ...any) { log.Printf(e.id+": "+format, args...) }

func (e *LoggingElector) Resign(ctx context.Context) {
	release.Run(ctx, e.rdb, []string{"leader:lock:4"}, e.id)
}

// A counter of attempts is no status: the failure is still only logged.
type CountingAdapter struct {
	rdb      *redis.Client
	attempts int32
}

func (a *CountingAdapter) AcquireJob(ctx context.Context, key, token string) {
	atomic.AddInt32(&a.attempts, 1)
	ok, err := a.rdb.SetNX(ctx, "job:lock:"+key, token, time.Minute).Result() // want `AcquireJob returns nothing, so when SetNX fails`
	if err != nil {
		log.Printf("job %s: %v", key, err)
		return
	}
	if !ok {
		log.Printf("job %s busy", key)
	}
}

func (a *CountingAdapter) ReleaseJob(ctx context.Context, key, token string) {
	release.Run(ctx, a.rdb, []string{"job:lock:" + key}, token)
}

// Reporter runs its whole job under the lock, in the function that takes
// it: rueidislock's cancel is its release. A failure that only logs ends
// the job; no caller goes on.
type Reporter struct{ locker rueidislock.Locker }

func (r *Reporter) lockAndReport(ctx context.Context) {
	lctx, cancel, err := r.locker.WithContext(ctx, "count")
	if err != nil {
		log.Print(err)
		return
	}
	defer cancel()
	<-lctx.Done()
}

// Near miss: the cancel is kept for a later Release, so the caller goes
// on as if it held the lock.
func (r *Reporter) lockForLater(ctx context.Context, keep map[string]context.CancelFunc) {
	_, cancel, err := r.locker.WithContext(ctx, "count") // want `lockForLater returns nothing, so when rueidislock Locker.WithContext fails`
	if err != nil {
		log.Print(err)
		return
	}
	keep["count"] = cancel
}
