package resultlib

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bsm/redislock"
)

// A lock type over redislock whose Lock prints a held lock and goes on to
// the success return: LockFunc runs f while someone else holds the lock.
type bsmLock struct {
	cli *redislock.Client
	key string
	mx  *redislock.Lock
}

func (l *bsmLock) Lock(ctx context.Context) error {
	lock, err := l.cli.Obtain(ctx, l.key, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) { // want `when redislock Client.Obtain fails \(errors.Is\(err, redislock.ErrNotObtained\)\), this branch falls through to return nil: Lock tells its callers it holds the lock when it does not`
		fmt.Println("could not obtain lock")
	} else if err != nil {
		return err
	}
	l.mx = lock
	return nil
}

func (l *bsmLock) LockFunc(ctx context.Context, f func()) error {
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.mx.Release(ctx)
	f()
	return nil
}

// Near miss: the held lock is an error of its own.
func (l *bsmLock) LockStrict(ctx context.Context) error {
	lock, err := l.cli.Obtain(ctx, l.key, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		fmt.Println("could not obtain lock")
		return err
	} else if err != nil {
		return err
	}
	l.mx = lock
	return nil
}

// Near miss: not an acquire function; a warm-up that takes the lock only
// if it is free and is fine either way.
func (l *bsmLock) Warm(ctx context.Context) error {
	lock, err := l.cli.Obtain(ctx, l.key, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		fmt.Println("someone else warms")
	} else if err != nil {
		return err
	}
	l.mx = lock
	return nil
}

// Near miss: the outcome is kept in a bool the callers read.
type bsmFlagLock struct {
	cli  *redislock.Client
	key  string
	mx   *redislock.Lock
	held bool
}

func (l *bsmFlagLock) Lock(ctx context.Context) error {
	lock, err := l.cli.Obtain(ctx, l.key, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		fmt.Println("could not obtain lock")
	} else if err != nil {
		return err
	}
	l.mx, l.held = lock, lock != nil
	return nil
}
