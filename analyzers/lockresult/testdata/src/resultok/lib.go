package resultok

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/locklint/locklint/safelock"
)

func libsOK(ctx context.Context, l *safelock.Locker, rs *redsync.Redsync, rl *redislock.Client) error {
	lease, err := l.TryAcquire(ctx, "job", time.Minute)
	if errors.Is(err, safelock.ErrNotAcquired) {
		return ErrBusy
	}
	if err != nil {
		return err
	}
	defer lease.Release(ctx)

	lease2, _ := l.Acquire(ctx, "other", time.Minute)
	if lease2 == nil {
		return ErrBusy
	}
	defer lease2.Release(ctx)

	m := rs.NewMutex("job")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()

	lock, err := rl.Obtain(ctx, "job", time.Minute, nil)
	if err == redislock.ErrNotObtained {
		return ErrBusy
	} else if err != nil {
		return err
	}
	defer lock.Release(ctx)

	return l.Do(ctx, "job", time.Minute, func(ctx context.Context, lease *safelock.Lease) error {
		process()
		return nil
	})
}

// The else does the work; the code after the if runs either way.
func elseWork(ctx context.Context, l *safelock.Locker) {
	lease, err := l.TryAcquire(ctx, "job", time.Minute)
	if err != nil {
		log.Println("busy")
	} else {
		process()
		lease.Release(ctx)
	}
	process()
}

func elseIfReturn(ctx context.Context, l *safelock.Locker) error {
	lease, err := l.TryAcquire(ctx, "job", time.Minute)
	if errors.Is(err, safelock.ErrNotAcquired) {
		return nil
	} else if err != nil {
		return err
	}
	defer lease.Release(ctx)
	process()
	return nil
}
