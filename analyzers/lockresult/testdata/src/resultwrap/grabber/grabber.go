package grabber

import (
	"time"

	"github.com/gomodule/redigo/redis"

	"resultwrap/grab"
)

func schedule() error { return nil }

// Only the error is checked: after the retry period the lock is not held
// and schedule runs anyway.
func Schedule(rp *redis.Pool, id string) error {
	locker := grab.NewLocker("schedule:"+id, time.Hour)
	lock, err := locker.Grab(rp, 5*time.Minute) // want `only the error of Locker.Grab \(SET NX at grab.go:\d+\) is checked: a lock held by someone else comes back as an empty token with a nil error`
	if err != nil {
		return err
	}
	defer locker.Release(rp, lock)
	return schedule()
}

// The token thrown away: the same.
func Populate(rp *redis.Pool, id string) error {
	locker := grab.NewLocker("populate:"+id, time.Hour)
	_, err := locker.Grab(rp, time.Minute) // want `only the error of Locker.Grab`
	if err != nil {
		return err
	}
	return schedule()
}

// The empty token is handled.
func Checked(rp *redis.Pool, id string) error {
	locker := grab.NewLocker("checked:"+id, time.Hour)
	lock, err := locker.Grab(rp, time.Minute)
	if err != nil {
		return err
	}
	if lock == "" {
		return nil
	}
	defer locker.Release(rp, lock)
	return schedule()
}

// Take reports a held lock as ErrBusy: checking the error is enough.
func Took(rp *redis.Pool, id string) error {
	locker := grab.NewLocker("took:"+id, time.Hour)
	lock, err := locker.Take(rp)
	if err != nil {
		return err
	}
	defer locker.Release(rp, lock)
	return schedule()
}
