package jobs

import (
	"context"
	"time"

	"repo"
)

func (s *Service) Archive(ctx context.Context, id string) error {
	lease, err := s.locker.TryAcquire(ctx, "job:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	if err := repo.ArchiveFenced(ctx, s.repo.db, id, lease.Fence()); err != nil {
		return err
	}
	return repo.Archive(ctx, s.repo.db, id) // want `repo.Archive \(database/sql DB.ExecContext at repo.go:\d+\) under lock "job:" \+ id \(safelock Locker.TryAcquire\) never receives the lease's Fence\(\)`
}
