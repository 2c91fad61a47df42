package failopenerr

import (
	"context"
	"errors"
	"time"
)

var errLockFailed = errors.New("lock failed")

type spinLock struct {
	key, token string
	every      time.Duration
}

// TryLock answers a refused lock with errLockFailed: nil means held.
func (l *spinLock) TryLock(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, l.key, l.token, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errLockFailed
	}
	return nil
}

// Lock's retry inverts the test: a failed retry returns nil, "held".
func (l *spinLock) Lock(ctx context.Context) error {
	err := l.TryLock(ctx)
	if err == nil {
		return nil
	}
	if !errors.Is(err, errLockFailed) {
		return err
	}
	t := time.NewTicker(l.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			err := l.TryLock(ctx) // want `when l.TryLock fails \(the lock is held elsewhere, Redis unreachable\), Lock returns a nil error, its answer for a lock it holds`
			if err != nil {
				return nil
			}
		}
	}
}

// Near miss: the retry keeps waiting on a refusal and stops on the rest.
func (l *spinLock) LockRight(ctx context.Context) error {
	t := time.NewTicker(l.every)
	defer t.Stop()
	for {
		err := l.TryLock(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errLockFailed) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Near miss: a job that skips its run when another node holds the lock;
// nil means "nothing to do here", and no caller takes it for a lock.
func (l *spinLock) RunReport(ctx context.Context) error {
	if err := l.TryLock(ctx); err != nil {
		return nil
	}
	return nil
}

// Near miss: a wrapper that answers a refused lock with nil gives no
// "held" answer to invert.
func (l *spinLock) tryQuiet(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, l.key, l.token, time.Minute).Result()
	if err != nil || !ok {
		return nil
	}
	return nil
}

func (l *spinLock) LockQuiet(ctx context.Context) error {
	if err := l.tryQuiet(ctx); err != nil {
		return nil
	}
	return nil
}

// Near miss: the retry's own success returns nil; the first call's
// failure only leads to it through the retry.
func (l *spinLock) LockRetry(ctx context.Context) error {
	err := l.TryLock(ctx)
	if err == nil {
		return nil
	}
	if !errors.Is(err, errLockFailed) {
		return err
	}
	t := time.NewTicker(l.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			err := l.TryLock(ctx)
			if err == nil {
				return nil
			}
			if !errors.Is(err, errLockFailed) {
				return err
			}
		}
	}
}
