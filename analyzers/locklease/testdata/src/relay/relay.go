// Package relay relays a stream under a lock taken through relaylock.
package relay

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"

	"relaylock"
)

// A try-lock that refreshes the lock it holds or else obtains it: its
// bool says whether this process holds the lock now, an acquire's
// outcome. A loop that skips the work while it is false is not a
// keep-alive that drops a renewal.
type buffer struct {
	rdb   *redis.Client
	key   string
	token string
	lock  *relaylock.Lock
}

func (b *buffer) tryLock(ctx context.Context) bool {
	if b.lock != nil {
		if err := b.lock.Refresh(ctx, time.Minute); err == nil {
			return true
		}
		b.lock = nil
	}
	l, err := relaylock.Obtain(ctx, b.rdb, b.key, b.token, time.Minute)
	if err != nil {
		return false
	}
	b.lock = l
	return true
}

func relayStream(ctx context.Context, b *buffer, pump func(context.Context)) {
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			default:
			}
			if !b.tryLock(ctx) {
				log.Print("another client relays this stream")
				continue
			}
			pump(ctx)
			return
		}
	}()
}

// Only refreshing, and going on when it fails: this keep-alive drops the
// outcome.
func (b *buffer) refresh(ctx context.Context) bool {
	return b.lock.Refresh(ctx, time.Minute) == nil
}

func keepStreamLock(ctx context.Context, b *buffer) {
	go func() {
		for ctx.Err() == nil {
			time.Sleep(20 * time.Second)
			if !b.refresh(ctx) { // want `this keep-alive renews with`
				log.Print("refresh failed")
				continue
			}
		}
	}()
}
