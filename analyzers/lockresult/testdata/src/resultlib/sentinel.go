package resultlib

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
)

// Only ErrNotObtained stops; Redis being down runs the work unlocked.
func (j *Jobs) sentinelOnly(ctx context.Context) error {
	lock, err := j.rl.Obtain(ctx, "job", time.Minute, nil) // want `only redislock.ErrNotObtained is treated as a failure of redislock Client.Obtain: any other error \(Redis unreachable, a timeout\) falls through`
	if err == redislock.ErrNotObtained {
		return err
	}
	defer lock.Release(ctx)
	work()
	return nil
}

// Both the sentinel and every other error stop.
func (j *Jobs) sentinelThenAny(ctx context.Context) error {
	lock, err := j.rl.Obtain(ctx, "job", time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil
	}
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	work()
	return nil
}
