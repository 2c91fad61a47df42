// Package lock is a stand-in for github.com/bsm/redis-lock, bsm's lock
// before redislock: v8's Locker and Obtain/Run, and v6's Lock and
// ObtainLock, with the signatures the analyzers match on.
package lock

import (
	"context"
	"errors"
	"time"
)

// RedisClient is the go-redis client the lock runs on.
type RedisClient interface{}

var ErrLockNotObtained = errors.New("lock not obtained")

// Options (v8): LockTimeout is the TTL, 5 s when zero.
type Options struct {
	LockTimeout time.Duration
	RetryCount  int
	RetryDelay  time.Duration
}

type Locker struct {
	key   string
	token string
}

func New(client RedisClient, key string, opts *Options) *Locker { return &Locker{key: key} }

func Obtain(client RedisClient, key string, opts *Options) (*Locker, error) {
	l := New(client, key, opts)
	if ok, err := l.Lock(); err != nil {
		return nil, err
	} else if !ok {
		return nil, ErrLockNotObtained
	}
	return l, nil
}

func Run(client RedisClient, key string, opts *Options, handler func()) error { return nil }

func (l *Locker) Lock() (bool, error)                               { return false, nil }
func (l *Locker) LockWithContext(ctx context.Context) (bool, error) { return false, nil }
func (l *Locker) Unlock() error                                     { return nil }
func (l *Locker) IsLocked() bool                                    { return l.token != "" }

// LockOptions and Lock are v6's.
type LockOptions struct {
	LockTimeout time.Duration
	WaitTimeout time.Duration
	WaitRetry   time.Duration
}

type Lock struct{ key string }

func NewLock(client RedisClient, key string, opts *LockOptions) *Lock { return &Lock{key: key} }

// ObtainLock returns (nil, nil) when the key is held.
func ObtainLock(client RedisClient, key string, opts *LockOptions) (*Lock, error) { return nil, nil }

func (l *Lock) Lock() (bool, error) { return false, nil }
func (l *Lock) Unlock() error       { return nil }
func (l *Lock) IsLocked() bool      { return false }
