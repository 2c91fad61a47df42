// Package locks is a project's own lock helper, in another package.
package locks

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker struct {
	rdb   redis.UniversalClient
	token string
}

func New(rdb redis.UniversalClient, token string) *Locker { return &Locker{rdb: rdb, token: token} }

func key(name string) string { return "locks:" + name }

// Grab takes the lock named name.
func (l *Locker) Grab(ctx context.Context, name string) (bool, error) {
	return l.rdb.SetNX(ctx, key(name), l.token, 30*time.Second).Result()
}

// Drop releases it.
func (l *Locker) Drop(ctx context.Context, name string) error {
	return l.rdb.Del(ctx, key(name)).Err()
}

// WithLock runs fn while it holds the lock named name.
func (l *Locker) WithLock(ctx context.Context, name string, fn func() error) error {
	ok, err := l.Grab(ctx, name)
	if err != nil || !ok {
		return err
	}
	defer l.Drop(ctx, name)
	return fn()
}
