// Package redlock is a stand-in for github.com/amyangfei/redlock-go/v3:
// a Redlock manager that takes and gives back locks by resource name.
package redlock

import (
	"context"
	"errors"
	"time"
)

var ErrAcquireLock = errors.New("failed to acquire lock")

type RedLock struct{ addrs []string }

func NewRedLock(ctx context.Context, addrs []string) (*RedLock, error) {
	return &RedLock{addrs: addrs}, nil
}

// Lock returns the validity left on the lock, or an error.
func (r *RedLock) Lock(ctx context.Context, resource string, ttl time.Duration) (time.Duration, error) {
	return 0, ErrAcquireLock
}

func (r *RedLock) UnLock(ctx context.Context, resource string) error { return nil }
