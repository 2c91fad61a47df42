package lease

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
)

// A refresher that stops quietly when the lock is gone: errors.Is only
// tests the error, it tells nobody, and the holder goes on.
func refresherStopsQuietly(ctx context.Context, lock *redislock.Lock) {
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if err := lock.Refresh(context.Background(), 5*time.Second, nil); err != nil { // want `this keep-alive renews with redislock Lock.Refresh but drops the outcome`
					if errors.Is(err, redislock.ErrNotObtained) {
						return
					}
					log.Printf("refresh: %v", err)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
}

// The same refresher cancelling the holder's work on a lost lock: told.
func refresherCancels(ctx context.Context, lock *redislock.Lock, cancel context.CancelFunc) {
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if err := lock.Refresh(context.Background(), 5*time.Second, nil); err != nil {
					if errors.Is(err, redislock.ErrNotObtained) {
						cancel()
						return
					}
					log.Printf("refresh: %v", err)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
}
