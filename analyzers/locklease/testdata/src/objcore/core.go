// Package objcore declares the lock API its callers use; the
// implementation (rueidislock behind it) is wired in by main, which no
// caller imports.
package objcore

import "context"

// Locker hands back the lock's lease as a context, cancelled when the
// lock is lost, and a cancel func that releases it.
type Locker interface {
	Lock(ctx context.Context, key string) (context.Context, context.CancelFunc, error)
}

// Mutexes is not a lease API: its Lock returns no context.
type Mutexes interface {
	Lock(ctx context.Context, key string) (func(), error)
}
