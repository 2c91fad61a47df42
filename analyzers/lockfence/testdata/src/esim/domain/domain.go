// Package domain declares the ports the scheduler uses; nothing here
// implements them.
package domain

import (
	"context"
	"time"
)

type Broker interface {
	Lock(ctx context.Context, key string, ttl time.Duration) bool
	Unlock(ctx context.Context, key string)
}

type Notifier interface {
	TryLock(ctx context.Context, key string, ttl time.Duration) bool
	Release(ctx context.Context, key string)
	Notify(ctx context.Context, what string)
}
