package jobs

import (
	"context"
	"time"

	"mongorepo"
)

// A write in a package that writes only to MongoDB.
func (s *Service) FinishMongo(ctx context.Context, jobs *mongorepo.Jobs, id string) error {
	lease, err := s.locker.TryAcquire(ctx, "job:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	return jobs.MarkDone(ctx, id) // want `jobs.MarkDone \(mongo Collection.UpdateOne at mongorepo.go:\d+\) under lock "job:" \+ id \(safelock Locker.TryAcquire\) never receives the lease's Fence\(\)`
}

// Near miss: the same package's read.
func (s *Service) CheckMongo(ctx context.Context, jobs *mongorepo.Jobs, id string) (bool, error) {
	lease, err := s.locker.TryAcquire(ctx, "job:"+id, 10*time.Second)
	if err != nil {
		return false, err
	}
	defer lease.Release(ctx)
	return jobs.Done(ctx, id)
}
