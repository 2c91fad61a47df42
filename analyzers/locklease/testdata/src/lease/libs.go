package lease

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/locklint/locklint/safelock"
	"github.com/redis/rueidis/rueidislock"
)

var (
	rs      = redsync.New()
	rl      = redislock.New(rdb)
	rlocker rueidislock.Locker
	plain   = safelock.New(rdb)
	renewer = safelock.New(rdb, safelock.WithAutoRenew())
)

func work(ctx context.Context) error { return ctx.Err() }

func redsyncExpiry() error {
	mu := rs.NewMutex("sync", redsync.WithExpiry(5*time.Second))
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	time.Sleep(10 * time.Second) // want `time.Sleep\(10s\) can outlive lock "sync" \(redsync Mutex.Lock\): the lock's TTL is 5s and nothing renews it.*Mutex.Extend`
	return nil
}

func redsyncDefault() error {
	mu := rs.NewMutex("sync", redsync.WithTries(3))
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	<-time.After(30 * time.Second) // want `time.After\(30s\) can outlive lock "sync" \(redsync Mutex.Lock\): the lock's TTL is 8s`
	return nil
}

func redsyncExtended(ctx context.Context) error {
	mu := rs.NewMutex("sync")
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	defer mu.Unlock()
	for i := 0; i < 10; i++ {
		time.Sleep(30 * time.Second)
		if ok, err := mu.Extend(); !ok || err != nil {
			return err
		}
	}
	return nil
}

func redislockPastTTL(ctx context.Context) error {
	lock, err := rl.Obtain(ctx, "report", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	time.Sleep(time.Minute) // want `time.Sleep\(1m0s\) can outlive lock "report" \(redislock Client.Obtain\): the lock's TTL is 5s.*Lock.Refresh`
	return nil
}

func redislockRefreshed(ctx context.Context) error {
	lock, err := redislock.Obtain(ctx, rdb, "report", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	time.Sleep(time.Minute)
	return lock.Refresh(ctx, 5*time.Second, nil)
}

func safelockNoRenew(ctx context.Context) error {
	lease, err := plain.TryAcquire(ctx, "sync", 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	time.Sleep(time.Minute) // want `time.Sleep\(1m0s\) can outlive lock "sync" \(safelock Locker.TryAcquire\): the lock's TTL is 10s and nothing renews it.*safelock.WithAutoRenew`
	return nil
}

func safelockDoneIgnored(ctx context.Context) error {
	lease, err := renewer.Acquire(ctx, "sync", 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	time.Sleep(time.Minute) // want `the lease from safelock Locker.Acquire is renewed automatically but Lease.Done\(\) is never watched, yet the section waits in time.Sleep\(1m0s\)`
	return nil
}

func safelockDoneWatched(ctx context.Context) error {
	lease, err := renewer.TryAcquire(ctx, "sync", 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	select {
	case <-lease.Done():
		return lease.Err()
	case <-time.After(time.Minute):
	}
	return nil
}

func doCtxIgnored(ctx context.Context) error {
	return renewer.Do(ctx, "sync", 10*time.Second, func(_ context.Context, l *safelock.Lease) error {
		time.Sleep(time.Minute) // want `the safelock Locker.Do callback never uses its context, which is cancelled when the lease is lost, yet waits in time.Sleep\(1m0s\)`
		return nil
	})
}

func doCtxUsed(ctx context.Context) error {
	return plain.Do(ctx, "sync", 10*time.Second, func(ctx context.Context, l *safelock.Lease) error {
		time.Sleep(time.Minute)
		return work(ctx)
	})
}

// The lease goes to a helper that may renew or watch it.
func leasePassed(ctx context.Context) error {
	lease, err := plain.TryAcquire(ctx, "sync", 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	go keepAlive(ctx, lease)
	time.Sleep(time.Minute)
	return nil
}

func keepAlive(ctx context.Context, l *safelock.Lease) {}

func rueidisDropped(ctx context.Context) error {
	_, cancel, err := rlocker.WithContext(ctx, "sync") // want `rueidislock Locker.WithContext returns a context that is cancelled when the lock is lost, but it is assigned to _ and the section goes on with ctx`
	if err != nil {
		return err
	}
	defer cancel()
	return work(ctx)
}

func rueidisKept(ctx context.Context) error {
	lockCtx, cancel, err := rlocker.TryWithContext(ctx, "sync")
	if err != nil {
		return err
	}
	defer cancel()
	return work(lockCtx)
}

// Dropped, but the section uses no context at all.
func rueidisNoCtx(ctx context.Context) error {
	_, cancel, err := rlocker.WithContext(ctx, "sync")
	if err != nil {
		return err
	}
	cancel()
	return nil
}

// A helper runs its caller's work under the lock and drops the loss
// context: the work is never told.
func rueidisRun(ctx context.Context, key string, fn func() error) error {
	_, cancel, err := rlocker.TryWithContext(ctx, key) // want `rueidislock Locker.TryWithContext returns a context that is cancelled when the lock is lost, but it is assigned to _ and the section runs the caller's fn, which is never told`
	if err != nil {
		return err
	}
	defer cancel()
	return fn()
}

// The callback is handed the loss context: told.
func rueidisRunKept(ctx context.Context, key string, fn func(context.Context) error) error {
	lockCtx, cancel, err := rlocker.TryWithContext(ctx, key)
	if err != nil {
		return err
	}
	defer cancel()
	return fn(lockCtx)
}

// A func made here, not the caller's work, after a dropped context.
func rueidisLocalFunc(ctx context.Context, key string) error {
	_, cancel, err := rlocker.TryWithContext(ctx, key)
	if err != nil {
		return err
	}
	defer cancel()
	count := func() int { return 1 }
	_ = count()
	return nil
}

// The parent context is a field, as a go-zero logic keeps it.
type inventoryLogic struct{ ctx context.Context }

func (l *inventoryLogic) refill(key string) error {
	_, cancel, err := rlocker.TryWithContext(l.ctx, key) // want `rueidislock Locker.TryWithContext returns a context that is cancelled when the lock is lost, but it is assigned to _ and the section goes on with l.ctx`
	if err != nil {
		return err
	}
	defer cancel()
	return work(l.ctx)
}

// Near miss: another logic's context is not the parent.
func (l *inventoryLogic) refillFor(other *inventoryLogic, key string) error {
	_, cancel, err := rlocker.TryWithContext(l.ctx, key)
	if err != nil {
		return err
	}
	defer cancel()
	return work(other.ctx)
}
