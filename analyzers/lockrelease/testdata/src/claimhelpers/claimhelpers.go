// Package claimhelpers is the near miss of claims.Rebuild, in a package
// of its own (helpers handed the key are joined by their parameter, so
// the two shapes would be judged as one key): the same helpers, but the
// release helper is called, not deferred, only where queueing failed. A
// claim kept when the work succeeded.
package claimhelpers

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

var errBusy = errors.New("busy")

func enqueue(ctx context.Context, user string) error { return ctx.Err() }

func tryQueueLock(ctx context.Context, key string) bool {
	ok, err := rdb.SetNX(ctx, key, "1", time.Hour).Result()
	return err == nil && ok
}

func releaseQueueLock(ctx context.Context, key string) {
	rdb.Del(ctx, key)
}

func Queue(ctx context.Context, user string) error {
	key := "queued:" + user
	if tryQueueLock(ctx, key) {
		if err := enqueue(ctx, user); err != nil {
			releaseQueueLock(ctx, key)
			return err
		}
		return nil
	}
	return errBusy
}
