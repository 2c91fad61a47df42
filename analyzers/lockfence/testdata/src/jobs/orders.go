package jobs

import (
	"context"
	"time"

	"repo"
)

type OrderService struct {
	s      *Service
	orders repo.Orders
	ledger repo.Ledger
}

// A write through an interface whose only implementation writes SQL.
func (o *OrderService) Cancel(ctx context.Context, id string) error {
	lease, err := o.s.locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	return o.orders.Cancel(ctx, id) // want `o.orders.Cancel \(database/sql DB.ExecContext at orders.go:\d+\) under lock "order:" \+ id \(safelock Locker.TryAcquire\) never receives the lease's Fence\(\)`
}

// Near miss: an interface with two implementations may not write at all.
func (o *OrderService) Post(ctx context.Context, id string) error {
	lease, err := o.s.locker.TryAcquire(ctx, "ledger:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	return o.ledger.Post(ctx, id)
}
