package safelock

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestAutoRenew: the watchdog keeps a short lease alive well past its ttl,
// and closes Done once the key is taken from it.
func TestAutoRenew(t *testing.T) {
	l, c := startLocker(t, WithAutoRenew())
	ctx := testCtx(t)
	const ttl = 500 * time.Millisecond
	a, err := l.TryAcquire(ctx, "dog", ttl)
	if err != nil {
		t.Fatal(err)
	}
	first := a.Deadline()
	// Wait for three ttl periods, by the lease's renewed deadlines.
	for i := 0; i < 3; i++ {
		waitRenewed(t, a, first.Add(time.Duration(i+1)*ttl))
	}
	if got := c.Get(ctx, "dog").Val(); got != a.Token() || a.Err() != nil {
		t.Fatalf("after 3 ttls: key %q, lease err %v", got, a.Err())
	}
	// Someone deletes the lock (as a failover to a replica without it would).
	if err := c.Del(ctx, "dog").Err(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-a.Done():
	case <-ctx.Done():
		t.Fatal("Done not closed after the key was lost")
	}
	if !errors.Is(a.Err(), ErrLeaseLost) {
		t.Fatalf("Err = %v, want ErrLeaseLost", a.Err())
	}
	if err := a.Release(ctx); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("Release after loss: %v", err)
	}
}

// waitRenewed waits until the lease's deadline moved past t.
func waitRenewed(tb testing.TB, l *Lease, t time.Time) {
	tb.Helper()
	ctx := testCtx(tb)
	for !l.Deadline().After(t) {
		select {
		case <-l.Done():
			tb.Fatalf("lease lost while waiting for a renew: %v", l.Err())
		case <-ctx.Done():
			tb.Fatal("no renew")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func TestDo(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	var fence int64
	err := l.Do(ctx, "do", time.Second, func(ctx context.Context, lease *Lease) error {
		fence = lease.Fence()
		if got := c.Get(ctx, "do").Val(); got != lease.Token() {
			t.Errorf("inside Do the key holds %q", got)
		}
		return nil
	})
	ks, _ := lockKeys("do")
	if counter, _ := c.Get(ctx, ks.fence).Int64(); err != nil || fence == 0 || fence != counter {
		t.Fatalf("Do: %v, fence %d, counter %d", err, fence, counter)
	}
	if c.Exists(ctx, "do").Val() != 0 {
		t.Fatal("Do left the key behind")
	}

	boom := errors.New("boom")
	if err := l.Do(ctx, "do", time.Second, func(context.Context, *Lease) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("Do returned %v, want fn's error", err)
	}
	if c.Exists(ctx, "do").Val() != 0 {
		t.Fatal("Do left the key behind after fn failed")
	}

	// The lease is lost during fn: fn's ctx ends, Do reports the loss.
	err = l.Do(ctx, "do", time.Second, func(fctx context.Context, lease *Lease) error {
		if err := c.Set(ctx, "do", "intruder", time.Minute).Err(); err != nil {
			return err
		}
		select {
		case <-fctx.Done():
			return nil // stopped work as asked
		case <-ctx.Done():
			return errors.New("fn's ctx was not cancelled")
		}
	})
	if !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("Do after loss: %v, want ErrLeaseLost", err)
	}
	if got := c.Get(ctx, "do").Val(); got != "intruder" {
		t.Fatalf("Do's release touched another owner's lock: %q", got)
	}
}

func TestDoReleasesOnPanic(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Fatalf("recovered %v, want the panic to pass through", r)
			}
		}()
		_ = l.Do(ctx, "panic", time.Minute, func(context.Context, *Lease) error { panic("boom") })
	}()
	if c.Exists(ctx, "panic").Val() != 0 {
		t.Fatal("Do left the key behind after fn panicked")
	}
}
