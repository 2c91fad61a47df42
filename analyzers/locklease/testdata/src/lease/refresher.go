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

// A refresher whose Redis errors exit the process but whose lost lock only
// ends the keep-alive: the branch for a lost lock tells nobody, and the
// holder goes on enqueueing without the lock.
func refresherExitsOnErrorOnly(ctx context.Context, lock *redislock.Lock) {
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for range t.C {
			err := lock.Refresh(ctx, 5*time.Second, nil) // want `this keep-alive renews with redislock Lock.Refresh but drops the outcome`
			if err == redislock.ErrNotObtained {
				break
			} else if err != nil {
				log.Fatalf("refresh: %v", err)
			}
		}
	}()
}

// Near miss: the lost branch cancels the holder's work.
func refresherCancelsOnLoss(ctx context.Context, lock *redislock.Lock, cancel context.CancelFunc) {
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for range t.C {
			err := lock.Refresh(ctx, 5*time.Second, nil)
			if err == redislock.ErrNotObtained {
				cancel()
				break
			} else if err != nil {
				log.Fatalf("refresh: %v", err)
			}
		}
	}()
}

// Near miss: the lost branch leaves the loop, and the code after the loop
// tells the holder.
func refresherCancelsAfterLoop(ctx context.Context, lock *redislock.Lock, lost chan<- struct{}) {
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for range t.C {
			err := lock.Refresh(ctx, 5*time.Second, nil)
			if errors.Is(err, redislock.ErrNotObtained) {
				break
			} else if err != nil {
				log.Fatalf("refresh: %v", err)
			}
		}
		close(lost)
	}()
}
