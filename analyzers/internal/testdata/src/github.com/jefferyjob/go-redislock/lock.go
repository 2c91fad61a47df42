// Package go_redislock is a stand-in for github.com/jefferyjob/go-redislock:
// New makes a lock object whose methods take, renew and release it.
package go_redislock

import (
	"context"
	"errors"
	"time"
)

var ErrLockFailed = errors.New("lock failed")

// RedisInter is the adapter over a Redis client.
type RedisInter interface{}

type RedisLockInter interface {
	Lock(ctx context.Context) error
	SpinLock(ctx context.Context, timeout time.Duration) error
	UnLock(ctx context.Context) error
	Renew(ctx context.Context) error
	FairLock(ctx context.Context, requestId string) error
	FairUnLock(ctx context.Context, requestId string) error
}

type RedisLock struct {
	key         string
	lockTimeout time.Duration
	autoRenew   bool
}

type Option func(*RedisLock)

func New(client RedisInter, key string, opts ...Option) RedisLockInter {
	l := &RedisLock{key: key, lockTimeout: 5 * time.Second}
	for _, o := range opts {
		o(l)
	}
	return l
}

func WithTimeout(d time.Duration) Option { return func(l *RedisLock) { l.lockTimeout = d } }
func WithAutoRenew() Option              { return func(l *RedisLock) { l.autoRenew = true } }
func WithToken(token string) Option      { return func(l *RedisLock) {} }

func (l *RedisLock) Lock(ctx context.Context) error                            { return ErrLockFailed }
func (l *RedisLock) SpinLock(ctx context.Context, timeout time.Duration) error { return ErrLockFailed }
func (l *RedisLock) UnLock(ctx context.Context) error                          { return nil }
func (l *RedisLock) Renew(ctx context.Context) error                           { return nil }
func (l *RedisLock) FairLock(ctx context.Context, requestId string) error      { return ErrLockFailed }
func (l *RedisLock) FairUnLock(ctx context.Context, requestId string) error    { return nil }
