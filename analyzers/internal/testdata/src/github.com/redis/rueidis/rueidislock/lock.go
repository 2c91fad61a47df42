// Package rueidislock is a minimal stand-in for github.com/redis/rueidis/rueidislock.
package rueidislock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/rueidis"
)

var ErrNotLocked = errors.New("not locked")

type LockerOption struct {
	ClientOption rueidis.ClientOption
	KeyValidity  time.Duration
	KeyMajority  int32
}

type Locker interface {
	WithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	TryWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	ForceWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	Client() rueidis.Client
	Close()
}

func NewLocker(option LockerOption) (Locker, error) { return nil, nil }
