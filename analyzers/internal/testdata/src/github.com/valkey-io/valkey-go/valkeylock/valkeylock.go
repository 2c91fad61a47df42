// Package valkeylock is a minimal stand-in for
// github.com/valkey-io/valkey-go/valkeylock, rueidislock's fork.
package valkeylock

import (
	"context"
	"time"
)

type LockerOption struct {
	KeyValidity time.Duration
	KeyMajority int32
}

type Locker interface {
	WithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	TryWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	Close()
}

func NewLocker(option LockerOption) (Locker, error) { return nil, nil }
