package jobs

import (
	"context"
)

const finish = "UPDATE jobs SET done = 1 WHERE id = ?"

// The lock helpers live in another file of this package.
func (s *Store) Run(ctx context.Context, id string) error {
	ok, err := s.lock(ctx, id)
	if err != nil || !ok {
		return err
	}
	defer s.unlock(ctx, id)
	_, err = s.db.ExecContext(ctx, finish, id) // want `database/sql DB.ExecContext under lock jobs.lockKey\(\*\) \(SET NX \(in Store.lock at store.go:\d+\)\) carries no fencing token`
	return err
}

// The lock helpers live in another package.
func (s *Store) Sweep(ctx context.Context) error {
	ok, err := s.lk.Grab(ctx, "sweep")
	if !ok || err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, "DELETE FROM jobs WHERE done = 1") // want `database/sql DB.ExecContext under lock .* carries no fencing token`
	if derr := s.lk.Drop(ctx, "sweep"); derr != nil {
		return derr
	}
	_, err = s.db.ExecContext(ctx, "DELETE FROM job_logs WHERE done = 1")
	return err
}

// The callback of a lock wrapper from another package is a section.
func (s *Store) Nightly(ctx context.Context) error {
	return s.lk.WithLock(ctx, "nightly", func() error {
		_, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE expired = 1") // want `database/sql DB.ExecContext under lock locks.key\("nightly"\) \(SET NX \(in Locker.Grab at locks.go:\d+\) in Locker.WithLock\) carries no fencing token`
		return err
	})
}
