package app

import (
	"context"
	"log"

	"resultwrap/locker"
)

func work() {}

func discarded(ctx context.Context, l *locker.Locker) {
	l.TryLock(ctx, "lock:report", "me") // want `the result of Locker.TryLock \(SetNX at locker.go:18\) is discarded`
	work()
	l.Unlock(ctx, "lock:report")
}

func errOnly(ctx context.Context, l *locker.Locker) error {
	if _, err := l.Acquired(ctx, "lock:report", "me"); err != nil { // want `only the error of Locker.Acquired \(Locker.TryLock .*\) is checked`
		return err
	}
	work()
	return l.Unlock(ctx, "lock:report")
}

func fallsThrough(ctx context.Context, l *locker.Locker) {
	ok, err := l.TryLock(ctx, "lock:report", "me")
	if err != nil || !ok { // want `when Locker.TryLock \(SetNX at locker.go:18\) fails \(err != nil \|\| !ok\), this branch falls through`
		log.Println("busy")
	}
	work()
}

func leaseDiscarded(ctx context.Context, l *locker.Locker) {
	lease, _ := l.Lease(ctx, "report") // want `the error of Locker.Lease \(safelock Locker.TryAcquire at locker.go:31\) is discarded and the lock it returns is never checked for nil`
	defer lease.Release(ctx)
	work()
}

func fine(ctx context.Context, l *locker.Locker) error {
	ok, err := l.TryLock(ctx, "lock:report", "me")
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	defer l.Unlock(ctx, "lock:report")
	work()
	return nil
}

// Through a wrapper with a fact, in a helper with no results that the
// caller runs before its work (taskLock(key); work(); unlock(key)).
func taskLock(ctx context.Context, l *locker.Locker, key string) {
	for {
		ok, err := l.TryLock(ctx, key, "me") // want `when Locker.TryLock .* fails with an error \(err != nil\), ok = true`
		if err != nil {
			ok = true
		}
		if ok {
			break
		}
	}
}
