package resultlib

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
)

// tryResumeLock maps Obtain's outcome onto (lock, acquired, err): a held
// lock is (nil, false, nil), Redis trouble (nil, false, err).
func (j *Jobs) tryResumeLock(ctx context.Context, id string) (*redislock.Lock, bool, error) { // want tryResumeLock:"returns the outcome of redislock Client.Obtain"
	lock, err := j.rl.Obtain(ctx, "resume:"+id, time.Minute, nil)
	if err == nil {
		return lock, true, nil
	}
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil, false, nil
	}
	return nil, false, err
}

// The error is logged and the resume runs anyway, without the lock.
func (j *Jobs) resume(ctx context.Context, id string) error {
	lock, acquired, err := j.tryResumeLock(ctx, id)
	if err != nil { // want `when Jobs.tryResumeLock \(redislock Client.Obtain at mapped.go:15\) fails \(err != nil\), this branch falls through`
		log.Print("resume lock failed, proceeding without lock: ", err)
	} else if !acquired {
		return nil
	}
	if lock != nil {
		defer lock.Release(ctx)
	}
	work()
	return nil
}

// Near miss: the error stops the resume.
func (j *Jobs) resumeStrict(ctx context.Context, id string) error {
	lock, acquired, err := j.tryResumeLock(ctx, id)
	if err != nil {
		return err
	}
	if !acquired {
		return nil
	}
	defer lock.Release(ctx)
	work()
	return nil
}
