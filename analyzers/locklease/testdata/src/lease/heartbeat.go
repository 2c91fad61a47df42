package lease

import (
	"context"
	"time"

	"distlock"
	"tokens"
)

// A heartbeat renews through the lock package's Manager and drops the
// answer: the holder never hears of a failed renewal.
type Heartbeat struct {
	manager distlock.Manager
	lock    *distlock.Lock
	ttl     time.Duration
	stop    chan struct{}
}

func (h *Heartbeat) Start(ctx context.Context) {
	go func() {
		t := time.NewTicker(h.ttl / 3)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				_ = h.manager.Refresh(ctx, h.lock, h.ttl) // want `this keep-alive renews with Manager.Refresh but drops the outcome`
			}
		}
	}()
}

// Near miss: a Refresh of a package that has nothing to do with locks.
type TokenKeeper struct {
	manager tokens.Manager
	stop    chan struct{}
}

func (k *TokenKeeper) Start(ctx context.Context, account string) {
	go func() {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-k.stop:
				return
			case <-t.C:
				_ = k.manager.Refresh(ctx, account)
			}
		}
	}()
}
