package lease

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// A keep-alive that sends EXPIRE through rueidis and drops the reply.
func rueidisLock(ctx context.Context, c rueidis.Client, key, token string) (func(), bool) {
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().ExSeconds(10).Build()).Error(); err != nil {
		return nil, false
	}
	done := make(chan struct{})
	go func() {
		ticker := time.NewTicker(5 * time.Second)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				c.Do(ctx, c.B().Expire().Key(key).Seconds(10).Build()) // want `this keep-alive renews with EXPIRE of lock key but drops the outcome`
			}
		}
	}()
	return func() {
		close(done)
		c.Do(context.Background(), c.B().Del().Key(key).Build())
	}, true
}

// Near miss: a failed renewal cancels the holder's context.
func rueidisLockHeard(ctx context.Context, c rueidis.Client, key, token string) (context.Context, bool) {
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().ExSeconds(10).Build()).Error(); err != nil {
		return nil, false
	}
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		ticker := time.NewTicker(5 * time.Second)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				c.Do(context.Background(), c.B().Del().Key(key).Build())
				return
			case <-ticker.C:
				if ok, err := c.Do(ctx, c.B().Expire().Key(key).Seconds(10).Build()).AsBool(); err != nil || !ok {
					cancel()
				}
			}
		}
	}()
	return ctx, true
}
