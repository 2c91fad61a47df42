// Package liblock is a project's own lock type over bsm/redislock and
// redsync, in another package, the way real code wraps a library.
package liblock

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
)

// Lock is what callers see; RedisLock is its only implementation.
type Lock interface {
	TryLock(ttl time.Duration) bool
	Unlock() error
}

type RedisLock struct {
	ctx    context.Context
	key    string
	client *redislock.Client
	lock   *redislock.Lock
}

func New(ctx context.Context, client *redislock.Client, name string) Lock {
	return &RedisLock{ctx: ctx, key: "lock:" + name, client: client}
}

// TryLock keeps the lock it obtains in the receiver.
func (l *RedisLock) TryLock(ttl time.Duration) bool {
	lock, err := l.client.Obtain(l.ctx, l.key, ttl, nil)
	if err != nil {
		return false
	}
	l.lock = lock
	return true
}

func (l *RedisLock) Unlock() error {
	if l.lock == nil {
		return errors.New("not locked")
	}
	return l.lock.Release(l.ctx)
}

// Fetch returns the lock it obtains.
func Fetch(ctx context.Context, client *redislock.Client, chain string) (*redislock.Lock, error) {
	return client.Obtain(ctx, "bank:"+chain+":lock", 15*time.Minute, nil)
}

// FetchVar returns the lock through a variable.
func FetchVar(ctx context.Context, client *redislock.Client, chain string) (*redislock.Lock, error) {
	lock, err := client.Obtain(ctx, "bank:"+chain+":lock", 15*time.Minute, nil)
	if err != nil {
		return nil, err
	}
	return lock, nil
}

// Mutex keeps a redsync mutex.
type Mutex struct{ mu *redsync.Mutex }

func (m *Mutex) Lock() error   { return m.mu.Lock() }
func (m *Mutex) Unlock() error { _, err := m.mu.Unlock(); return err }

// Guarded takes and releases its own lock: to its caller it is no
// acquire (a near miss).
func Guarded(ctx context.Context, client *redislock.Client, name string) (bool, error) {
	lock, err := client.Obtain(ctx, name, time.Second, nil)
	if err != nil {
		return false, err
	}
	defer lock.Release(ctx)
	return true, nil
}
