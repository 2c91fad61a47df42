// Package redsync is a minimal stand-in for github.com/go-redsync/redsync/v4.
package redsync

import (
	"context"
	"errors"
	"time"
)

var ErrFailed = errors.New("redsync: failed to acquire lock")

// Pool stands in for redis.Pool of redsync/v4/redis.
type Pool interface{}

type Redsync struct{ pools []Pool }

func New(pools ...Pool) *Redsync { return &Redsync{pools: pools} }

type Option interface{ Apply(*Mutex) }

type OptionFunc func(*Mutex)

func (f OptionFunc) Apply(m *Mutex) { f(m) }

func WithExpiry(expiry time.Duration) Option { return OptionFunc(func(m *Mutex) { m.expiry = expiry }) }
func WithTries(tries int) Option             { return OptionFunc(func(m *Mutex) {}) }

func (r *Redsync) NewMutex(name string, options ...Option) *Mutex { return &Mutex{name: name} }

type Mutex struct {
	name   string
	expiry time.Duration
}

func (m *Mutex) Name() string                                    { return m.name }
func (m *Mutex) Value() string                                   { return "" }
func (m *Mutex) Until() time.Time                                { return time.Time{} }
func (m *Mutex) TryLock() error                                  { return nil }
func (m *Mutex) TryLockContext(ctx context.Context) error        { return nil }
func (m *Mutex) Lock() error                                     { return nil }
func (m *Mutex) LockContext(ctx context.Context) error           { return nil }
func (m *Mutex) Unlock() (bool, error)                           { return true, nil }
func (m *Mutex) UnlockContext(ctx context.Context) (bool, error) { return true, nil }
func (m *Mutex) Extend() (bool, error)                           { return true, nil }
func (m *Mutex) ExtendContext(ctx context.Context) (bool, error) { return true, nil }
func (m *Mutex) Valid() (bool, error)                            { return true, nil }
func (m *Mutex) ValidContext(ctx context.Context) (bool, error)  { return true, nil }
