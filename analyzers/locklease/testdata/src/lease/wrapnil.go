package lease

import (
	"context"
	"fmt"
	"time"

	"github.com/bsm/redislock"
)

type serverLock struct {
	inner   *redislock.Lock
	expires time.Time
}

// The failed refresh is wrapped into err, and then nil is returned: the
// return is the line to change.
func (s *serverLock) refresh(ctx context.Context) (err error) {
	err = s.inner.Refresh(ctx, time.Minute, nil)
	if err != nil {
		err = fmt.Errorf("refresh lock: %w", err)
	} else {
		s.expires = time.Now().Add(time.Minute)
	}
	return nil // want `refresh keeps the error of a failed redislock Lock.Refresh but returns nil`
}

// A failed refresh only logged, then nil: the branch is the line to
// change, and the report stays at the renewal.
func (s *serverLock) refreshLogged(ctx context.Context) error {
	if err := s.inner.Refresh(ctx, time.Minute, nil); err != nil { // want `when redislock Lock.Refresh fails, refreshLogged still returns a nil error`
		fmt.Println("refresh:", err)
	}
	return nil
}

// Near miss: the wrapped error is returned.
func (s *serverLock) refreshReturned(ctx context.Context) (err error) {
	err = s.inner.Refresh(ctx, time.Minute, nil)
	if err != nil {
		err = fmt.Errorf("refresh lock: %w", err)
	}
	return err
}
