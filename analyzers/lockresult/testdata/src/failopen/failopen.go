// Package failopen has no Redis of its own: its lock is behind an
// interface another package implements.
package failopen

import (
	"context"
	"time"

	"failopen/exception"
)

type LockCache interface {
	AcquireOrderLock(ctx context.Context, id string, ttl time.Duration) (bool, error)
	ReleaseOrderLock(ctx context.Context, id string) error
	IsLocked(ctx context.Context, id string) (bool, error)
}

type Service struct{ cache LockCache }

// Fail-open on a Redis error: the caller runs unlocked.
func (s *Service) acquire(ctx context.Context, id string) bool {
	ok, err := s.cache.AcquireOrderLock(ctx, id, time.Minute) // want `when AcquireOrderLock fails \(Redis unreachable, a timeout\), acquire returns true: its caller takes the lock as held`
	if err != nil {
		return true // degrade: rely on the database
	}
	return ok
}

// Near misses: the error is a failure, or it is returned with false.
func (s *Service) acquireStrict(ctx context.Context, id string) bool {
	ok, err := s.cache.AcquireOrderLock(ctx, id, time.Minute)
	if err != nil {
		return false
	}
	return ok
}

func (s *Service) tryAcquire(ctx context.Context, id string) (bool, error) {
	ok, err := s.cache.AcquireOrderLock(ctx, id, time.Minute)
	if err != nil {
		return false, err
	}
	return ok, nil
}

// Near miss: not an acquire.
func (s *Service) locked(ctx context.Context, id string) bool {
	held, err := s.cache.IsLocked(ctx, id)
	if err != nil {
		return true // assume held
	}
	return held
}

// appLogger is a project's own logger: Fatal exits, Error returns.
type appLogger struct{}

func (appLogger) Fatal(msg string, err error) { panic(msg + ": " + err.Error()) }

func (appLogger) Error(msg string, err error) {}

var logger appLogger

// The error is only logged, and the code goes on to "return true".
func (s *Service) acquireLogged(ctx context.Context, id string) bool {
	ok, err := s.cache.AcquireOrderLock(ctx, id, time.Minute) // want `when AcquireOrderLock fails \(Redis unreachable, a timeout\), acquireLogged returns true`
	if err != nil {
		logger.Error("lock store unreachable", err)
	}
	if !ok {
		return false
	}
	return true
}

// Near miss: a logger's Fatal does not return.
func (s *Service) acquireOrExit(ctx context.Context, id string) bool {
	ok, err := s.cache.AcquireOrderLock(ctx, id, time.Minute)
	if err != nil {
		logger.Fatal("lock store unreachable", err)
	}
	if !ok {
		return false
	}
	return true
}

// Near miss: the handler, in another package, panics on the error.
func (s *Service) acquireHandled(ctx context.Context, id string) bool {
	ok, err := s.cache.AcquireOrderLock(ctx, id, time.Minute)
	if err != nil {
		exception.HandleServerError(err, "acquiring the order lock")
	}
	if !ok {
		return false
	}
	return true
}

// The handler in another package only logs: the error lets the caller in.
func (s *Service) acquireReported(ctx context.Context, id string) bool {
	ok, err := s.cache.AcquireOrderLock(ctx, id, time.Minute) // want `when AcquireOrderLock fails \(Redis unreachable, a timeout\), acquireReported returns true`
	if err != nil {
		exception.Report(err, "acquiring the order lock")
	}
	if !ok {
		return false
	}
	return true
}
