package app

import (
	"context"
	"time"

	"locker"
)

func Run(ctx context.Context, s *locker.Store, token string) {
	if !s.Put(ctx, "app:leader", token) {
		return
	}
	defer s.Drop(ctx, "app:leader") // want `lock "app:leader" is deleted with DEL \(in Store.Drop at locker.go:19\) without checking`
}

func Cache(ctx context.Context, s *locker.Store) {
	s.Drop(ctx, "cache:home") // never acquired with NX: not a lock
}

func Job(ctx context.Context, l *locker.RedisLock) {
	if l.TryLock(ctx, "job") {
		defer l.Unlock(ctx, "job") // reported once, in package locker
	}
}

func Wrapped(ctx context.Context, c *locker.Client) {
	if c.SetNX(ctx, "wrapped", time.Second) {
		defer c.Del(ctx, "wrapped") // want `lock "wrapped" is deleted with DEL \(in Client.Del at locker.go:43\) without checking`
	}
	c.Del(ctx, "cache:page") // not a lock
}
