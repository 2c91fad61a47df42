package lease

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
)

func submit(ctx context.Context) error { return ctx.Err() }

// A replica holds the cron lock until shutdown: the redsync default TTL
// (8s) runs out long before, and another replica takes the lock while
// this one still counts as the holder.
func holdUntilShutdown(ctx context.Context) error {
	mu := rs.NewMutex("crontask-lock")
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	defer mu.Unlock()
	if err := submit(ctx); err != nil {
		return err
	}
	<-ctx.Done() // want `<-ctx.Done\(\), which waits until ctx is cancelled, can outlive lock "crontask-lock" \(redsync Mutex.LockContext\): the lock's TTL is 8s and nothing renews it`
	return nil
}

// The context's own timeout bounds the wait: reported once, at the wait.
func holdWithTimeout(ctx context.Context) error {
	mu := rs.NewMutex("report-lock", redsync.WithExpiry(time.Minute))
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	<-tctx.Done() // want `<-tctx.Done\(\), which waits out its 2m0s timeout, can outlive lock "report-lock"`
	return nil
}

// Near misses: a timeout within the TTL; a deadline the function does
// not show; a wait that a select bounds; the wait in a goroutine that
// releases the lock when ctx ends.
func holdBriefly(ctx context.Context) error {
	mu := rs.NewMutex("brief-lock", redsync.WithExpiry(time.Minute))
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	<-tctx.Done()
	return nil
}

func holdUntilDeadline(ctx context.Context, at time.Time) error {
	mu := rs.NewMutex("deadline-lock")
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	dctx, cancel := context.WithDeadline(ctx, at)
	defer cancel()
	<-dctx.Done()
	return nil
}

func holdOrDone(ctx context.Context, done <-chan struct{}) error {
	mu := rs.NewMutex("select-lock")
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	select {
	case <-ctx.Done():
	case <-done:
	}
	return nil
}

func releaseOnShutdown(ctx context.Context) error {
	mu := rs.NewMutex("bg-lock")
	if err := mu.Lock(); err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		_, _ = mu.Unlock()
	}()
	return submit(ctx)
}
