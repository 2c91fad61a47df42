// Package safelock is a minimal stand-in for github.com/locklint/locklint/safelock,
// with the same API shapes, for analyzer tests.
package safelock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	ErrNotAcquired = errors.New("safelock: not acquired")
	ErrLeaseLost   = errors.New("safelock: lease lost")
)

type Option func(*options)

type options struct{ autoRenew bool }

func WithAutoRenew() Option { return func(o *options) { o.autoRenew = true } }
func WithFairness() Option  { return func(o *options) {} }

type Locker struct{ c redis.UniversalClient }

func New(client redis.UniversalClient, opts ...Option) *Locker { return &Locker{c: client} }

func NewRedlock(clients []redis.UniversalClient, opts ...Option) *Locker { return &Locker{} }

func (l *Locker) TryAcquire(ctx context.Context, key string, ttl time.Duration) (*Lease, error) {
	return &Lease{}, nil
}

func (l *Locker) Acquire(ctx context.Context, key string, ttl time.Duration) (*Lease, error) {
	return &Lease{}, nil
}

func (l *Locker) Do(ctx context.Context, key string, ttl time.Duration, fn func(ctx context.Context, l *Lease) error) error {
	return fn(ctx, &Lease{})
}

type Lease struct{ done chan struct{} }

func (l *Lease) Key() string                                        { return "" }
func (l *Lease) Token() string                                      { return "" }
func (l *Lease) Fence() int64                                       { return 0 }
func (l *Lease) Done() <-chan struct{}                              { return l.done }
func (l *Lease) Err() error                                         { return nil }
func (l *Lease) Deadline() time.Time                                { return time.Time{} }
func (l *Lease) Release(ctx context.Context) error                  { return nil }
func (l *Lease) Renew(ctx context.Context, ttl time.Duration) error { return nil }

func NewToken() string { return "" }

func ReleaseKey(ctx context.Context, c redis.Scripter, key, token string) (bool, error) {
	n, err := c.Eval(ctx, ReleaseScript, []string{key}, token).Int()
	return n == 1, err
}

const ReleaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`
