// Package distlock is a project's lock package: its types need not say
// lock again (distlock.Manager).
package distlock

import (
	"context"
	"time"
)

type Lock struct {
	Key   string
	Token string
}

// Manager's methods run scripts this package does not show.
type Manager interface {
	Refresh(ctx context.Context, l *Lock, ttl time.Duration) error
}
