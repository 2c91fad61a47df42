package resultlib

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
)

// The guard returns every error but the refusal: a lock held elsewhere
// runs the work.
func (j *Jobs) exceptRefusal(ctx context.Context) error {
	lock, err := j.rl.Obtain(ctx, "job", time.Minute, nil)
	if err != nil && err != redislock.ErrNotObtained { // want `when the lock is held elsewhere, redislock Client.Obtain fails with redislock.ErrNotObtained, which this test lets through \(err != nil && err != redislock.ErrNotObtained\): the code after it needs the lock and work\(...\) runs without it`
		return err
	}
	defer lock.Release(ctx)
	work()
	return nil
}

// The refusal passes the guard and is stopped by the next test.
func (j *Jobs) refusalThenStop(ctx context.Context) error {
	lock, err := j.rl.Obtain(ctx, "job", time.Minute, nil)
	if err != nil && !errors.Is(err, redislock.ErrNotObtained) {
		return err
	}
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil
	}
	defer lock.Release(ctx)
	work()
	return nil
}

// DataLock is implemented in a package that imports this one, so no fact
// says what Lock does; the test of its error says it is an acquire.
type DataLock interface {
	Lock(ctx context.Context) error
	UnLock(ctx context.Context) error
}

func reload(ctx context.Context, lock DataLock) error {
	if err := lock.Lock(ctx); err != nil && err != redislock.ErrNotObtained { // want `when the lock is held elsewhere, DataLock.Lock fails with redislock.ErrNotObtained, which this test lets through`
		return err
	}
	defer lock.UnLock(ctx)
	work()
	return nil
}

var errShuttingDown = errors.New("shutting down")

// The excluded error is not a refusal: nothing says Lock refuses with it.
func reloadUnlessClosing(ctx context.Context, lock DataLock) error {
	if err := lock.Lock(ctx); err != nil && err != errShuttingDown {
		return err
	}
	defer lock.UnLock(ctx)
	work()
	return nil
}

// The refusal passes the guard and stops at the next test.
func reloadOnce(ctx context.Context, lock DataLock) error {
	err := lock.Lock(ctx)
	if err != nil && err != redislock.ErrNotObtained {
		return err
	}
	if err == redislock.ErrNotObtained {
		return nil
	}
	defer lock.UnLock(ctx)
	work()
	return nil
}
