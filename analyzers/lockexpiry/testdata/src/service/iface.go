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
	return l.rdb.SetNX(ctx, key, token, 0).Val()
}

func (l *redisLocker) Unlock(ctx context.Context, key string) { l.rdb.Del(ctx, key) }

func Report(ctx context.Context, l Locker, token string) {
	if l.TryLock(ctx, "report", token) { // want `lock "report" is acquired with SET NX \(in redisLocker.TryLock at iface.go:18\) without a TTL`
		defer l.Unlock(ctx, "report")
	}
}
