package sched

import (
	"context"
	"database/sql"
	"time"

	"esim/broker"
	"esim/domain"

	"github.com/redis/go-redis/v9"
)

type Scheduler struct {
	broker   domain.Broker
	notifier domain.Notifier
	db       *sql.DB
}

func New(rdb *redis.Client, db *sql.DB) *Scheduler {
	return &Scheduler{broker: broker.New(rdb), db: db}
}

// The domain's Broker has one implementation in the project, over Redis:
// its Lock is a SET NX lock.
func (s *Scheduler) Reset(ctx context.Context, id string) error {
	if !s.broker.Lock(ctx, "job:"+id, time.Minute) {
		return nil
	}
	defer s.broker.Unlock(ctx, "job:"+id)
	_, err := s.db.ExecContext(ctx, "UPDATE jobs SET state = 'pending' WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "job:" \+ id \(SET NX \(in RedisBroker.Lock at broker.go:\d+\)\) carries no fencing token`
	return err
}

// Near miss: Notifier has two implementations, one that takes no lock.
func (s *Scheduler) Announce(ctx context.Context, id string) error {
	if !s.notifier.TryLock(ctx, "announce:"+id, time.Minute) {
		return nil
	}
	defer s.notifier.Release(ctx, "announce:"+id)
	_, err := s.db.ExecContext(ctx, "UPDATE jobs SET announced = 1 WHERE id = ?", id)
	return err
}
