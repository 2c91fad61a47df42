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
	return s.repo.MarkDone(ctx, id) // the write is reported in the helper (store.go)
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
	return s.repo.SaveFence(ctx, id, lease.Fence()) // reported at the statement (store.go)
}
