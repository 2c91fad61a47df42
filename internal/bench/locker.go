package bench

import (
	"context"
	"errors"
	"net"
	"strings"
	"time"
)

// Locker is what every compared lock library is adapted to. Adapters live in
// internal/bench/adapters, one file per library; they keep each library's
// own waiting strategy, because that is part of what is being compared.
type Locker interface {
	// Name identifies the implementation in reports ("safelock", "naive", ...).
	Name() string
	// TryAcquire makes one attempt; it returns ErrNotAcquired when the
	// lock is held by someone else.
	TryAcquire(ctx context.Context, key string, ttl time.Duration) (Lease, error)
	// Acquire waits, the library's own way, until the lock is granted or
	// ctx ends.
	Acquire(ctx context.Context, key string, ttl time.Duration) (Lease, error)
	// Close releases the adapter's own resources (not the shared clients).
	Close() error
}

// Lease is a granted lock.
type Lease interface {
	Release(ctx context.Context) error
	// Renew extends the lease to ttl from now; ErrUnsupported when the
	// library has no explicit renew.
	Renew(ctx context.Context, ttl time.Duration) error
	// Fence returns the fencing token, or 0 when the library issues none.
	Fence() int64
}

// Sentinel errors adapters map their libraries' errors to.
var (
	ErrNotAcquired = errors.New("lock held by another owner")
	ErrLeaseLost   = errors.New("lease lost")
	ErrUnsupported = errors.New("not supported by this implementation")
	// ErrNoValidity: the lock was granted, but the round trip took so long
	// that no validity was left; the library gave it back.
	ErrNoValidity = errors.New("granted with no validity left")
)

// Cause classifies an error into a short, stable label for "errors by cause".
func Cause(err error) string {
	var ne net.Error
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrNotAcquired):
		return "not_acquired"
	case errors.Is(err, ErrLeaseLost):
		return "lease_lost"
	case errors.Is(err, ErrUnsupported):
		return "unsupported"
	case errors.Is(err, ErrNoValidity):
		return "no_validity"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.As(err, &ne) && ne.Timeout():
		return "io_timeout"
	case errors.Is(err, net.ErrClosed):
		return "conn_closed"
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "connection refused"), strings.Contains(msg, "EOF"),
		strings.Contains(msg, "connection reset"), strings.Contains(msg, "broken pipe"):
		return "connection"
	case strings.HasPrefix(msg, "NOSCRIPT"):
		return "noscript"
	case strings.HasPrefix(msg, "ERR"), strings.HasPrefix(msg, "WRONGTYPE"),
		strings.HasPrefix(msg, "MOVED"), strings.HasPrefix(msg, "CROSSSLOT"):
		f := strings.Fields(msg)
		return "redis_" + strings.ToLower(f[0])
	}
	return "other"
}

// Factory builds one implementation's Locker on a target. New returns an
// error wrapping ErrUnsupported when the implementation cannot run on that
// kind of target (for example a single-node library on several nodes).
type Factory struct {
	Name string
	// About says in a few words what the implementation does, so that a
	// reader of the report knows what was compared.
	About string
	New   func(t *Target) (Locker, error)
}

// FenceChecker is implemented by adapters whose library ships a check for
// the protected resource: CheckedWrite writes to resource on behalf of
// lease only if no later grant has written there, and says whether it did.
type FenceChecker interface {
	CheckerName() string
	CheckedWrite(ctx context.Context, resource string, lease Lease) (accepted bool, err error)
}

// SelfRenewing is implemented by adapters whose library renews held locks
// from a background goroutine. The safety workload pauses one goroutine,
// not the process, so for them it would show a pause that never happens
// to the watchdog; they are left out of it.
type SelfRenewing interface{ SelfRenewing() bool }

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
