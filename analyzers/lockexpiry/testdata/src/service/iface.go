package service

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Locker is the project's own interface in front of the client.
type Locker interface {
	TryLock(ctx context.Context, key, token string) bool
	Unlock(ctx context.Context, key string)
}

type redisLocker struct{ rdb redis.UniversalClient }

func (l *redisLocker) TryLock(ctx context.Context, key, token string) bool {
	return l.rdb.SetNX(ctx, key, token, 0).Val() // want `lock key is acquired with SET NX without a TTL`
}

func (l *redisLocker) Unlock(ctx context.Context, key string) { l.rdb.Del(ctx, key) }

func Report(ctx context.Context, l Locker, token string) {
	// The lock API's own package judged its TryLock and Unlock, once.
	if l.TryLock(ctx, "report", token) {
		defer l.Unlock(ctx, "report")
	}
}
