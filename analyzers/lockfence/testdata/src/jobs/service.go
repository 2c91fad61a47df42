package jobs

import (
	"context"
	"time"

	"github.com/locklint/locklint/safelock"
)

type Service struct {
	locker *safelock.Locker
	repo   *Repo
}

func (s *Service) Finish(ctx context.Context, id string) error {
	lease, err := s.locker.TryAcquire(ctx, "job:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	return s.repo.MarkDone(ctx, id) // want `s.repo.MarkDone \(database/sql DB.ExecContext at store.go:\d+\) under lock "job:" \+ id \(safelock Locker.TryAcquire\) never receives the lease's Fence\(\)`
}

func (s *Service) FinishFenced(ctx context.Context, id string) error {
	lease, err := s.locker.TryAcquire(ctx, "job:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	return s.repo.MarkDoneFenced(ctx, id, lease.Fence())
}

func (s *Service) FinishUnchecked(ctx context.Context, id string) error {
	lease, err := s.locker.TryAcquire(ctx, "job:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	return s.repo.SaveFence(ctx, id, lease.Fence()) // want `the fencing token reaches this s.repo.SaveFence \(database/sql DB.ExecContext at store.go:\d+\), but the statement has no fence condition`
}
