package lease

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/bsm/redislock"
)

var errNotHolder = errors.New("not the lock holder")

type session struct{ lock *redislock.Lock }

// Every error but "not held" is swallowed: a timeout looks like a kept
// lease to the caller.
func (s *session) Refresh(ctx context.Context, ttl time.Duration) error {
	if err := s.lock.Refresh(ctx, ttl, nil); err != nil { // want `when redislock Lock.Refresh fails, Refresh still returns a nil error: its caller takes the failed renewal for a kept lease`
		if errors.Is(err, redislock.ErrLockNotHeld) {
			return errNotHolder
		}
	}
	return nil
}

// Logged and dropped.
func (s *session) Extend(ctx context.Context) error {
	err := s.lock.Refresh(ctx, time.Minute, nil) // want `when redislock Lock.Refresh fails, Extend still returns a nil error`
	if err != nil {
		log.Printf("refresh: %v", err)
	}
	return nil
}

// Near misses: the error reaches the caller.
func (s *session) RefreshChecked(ctx context.Context, ttl time.Duration) error {
	if err := s.lock.Refresh(ctx, ttl, nil); err != nil {
		if errors.Is(err, redislock.ErrLockNotHeld) {
			return errNotHolder
		}
		return fmt.Errorf("refresh: %w", err)
	}
	return nil
}

func (s *session) RefreshWrapped(ctx context.Context) error {
	err := s.lock.Refresh(ctx, time.Minute, nil)
	if err == nil {
		return nil
	}
	return fmt.Errorf("lease lost: %w", err)
}

// Near miss: a retry loop that returns the error after the last attempt.
func (s *session) RefreshRetry(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.lock.Refresh(ctx, time.Minute, nil); err == nil {
			return nil
		}
	}
	return err
}

// Near miss: a reentrant unlock re-arms the TTL while the count is
// above zero; its PEXPIRE is part of a release, not a renewal.
func unlockReentrant(ctx context.Context, key, owner string) error {
	err := rdb.Eval(ctx, `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return nil end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then redis.call('PEXPIRE', KEYS[1], 30000) return 0 end
redis.call('DEL', KEYS[1]) return 1`, []string{key}, owner).Err()
	if err != nil {
		log.Print(err)
	}
	return nil
}

// Near miss: a driver that renews among other work and records the
// failure; its error answers for other things.
func (s *session) measure(ctx context.Context, failures *int) error {
	for i := 0; i < 3; i++ {
		if err := s.lock.Refresh(ctx, time.Minute, nil); err != nil {
			*failures++
			continue
		}
	}
	return nil
}
