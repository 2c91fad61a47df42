package fence

import (
	"context"
	"strconv"
	"time"

	"github.com/locklint/locklint/safelock"
	"github.com/locklint/locklint/safelock/fence"
)

var (
	locker = safelock.New(rdb)
	orders = fence.Table{Name: "orders", IDColumn: "id", FenceColumn: "fence"}
)

func leaseNoFence(ctx context.Context, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "order:" \+ id \(safelock Locker.TryAcquire\) never receives the lease's Fence\(\).*AND fence < \?`
	return err
}

func fenceWithoutCondition(ctx context.Context, id string) error {
	lease, err := locker.Acquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'paid', fence = ? WHERE id = ?", lease.Fence(), id) // want `the fencing token reaches this database/sql DB.ExecContext, but the statement has no fence condition`
	return err
}

func fenceChecked(ctx context.Context, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if lease == nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'paid', fence = ? WHERE id = ? AND fence < ?", lease.Fence(), id, lease.Fence())
	return err
}

const updateFenced = `UPDATE orders
	SET state = $1, fence = $2
	WHERE id = $3 AND orders.fence <= $2`

// The fence reaches the write through locals, a slice and a conversion.
func fenceThroughLocals(ctx context.Context, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	f := lease.Fence()
	args := []any{"paid"}
	args = append(args, f, id)
	if _, err := db.ExecContext(ctx, updateFenced, args...); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO audit (id, fence) VALUES (?, ?)", id, strconv.FormatInt(f, 10))
	return err
}

// An upsert whose conflict branch compares the stored fence.
func fencedUpsert(ctx context.Context, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = db.ExecContext(ctx, `INSERT INTO orders (id, state, fence) VALUES (?, 'paid', ?)
		ON CONFLICT (id) DO UPDATE SET state = excluded.state, fence = excluded.fence
		WHERE orders.fence < excluded.fence`, id, lease.Fence())
	return err
}

// The safelock/fence helpers check the fence where the write lands.
func fenceHelpers(ctx context.Context, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	if _, err := orders.Update(ctx, db, id, lease, fence.Set("state", "paid")); err != nil {
		return err
	}
	if _, err := orders.Upsert(ctx, db, id, fence.Of(lease.Fence(), lease.Token()), fence.Set("state", "paid")); err != nil {
		return err
	}
	_, err = fence.SetRedis(ctx, rdb, "order:"+id+":state", lease, "paid")
	return err
}

// Do: the callback is the section.
func doNoFence(ctx context.Context, id string) error {
	return locker.Do(ctx, "order:"+id, 10*time.Second, func(ctx context.Context, l *safelock.Lease) error {
		_, err := db.ExecContext(ctx, "DELETE FROM queue WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "order:" \+ id \(safelock Locker.Do\) never receives the lease's Fence\(\)`
		return err
	})
}

func doFenced(ctx context.Context, id string) error {
	return locker.Do(ctx, "order:"+id, 10*time.Second, func(ctx context.Context, l *safelock.Lease) error {
		_, err := db.ExecContext(ctx, "DELETE FROM queue WHERE id = ? AND fence < ?", id, l.Fence())
		return err
	})
}

// A section that only reads.
func readOnly(ctx context.Context, id string) (string, error) {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return "", err
	}
	defer lease.Release(ctx)
	var s string
	err = db.QueryRowContext(ctx, "SELECT state FROM orders WHERE id = ?", id).Scan(&s)
	return s, err
}

// Writes after an explicit release are outside the section.
func afterRelease(ctx context.Context, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	if err := lease.Release(ctx); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE orders SET released = 1 WHERE id = ?", id)
	return err
}

// SQL text that cannot be read is not judged.
func unknownSQL(ctx context.Context, q, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = db.ExecContext(ctx, q, id, lease.Fence())
	return err
}

// A fence helper does not end the section; the plain write after it has
// no fence.
func fenceHelperThenPlain(ctx context.Context, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	if _, err := orders.Update(ctx, db, id, lease, fence.Set("state", "paid")); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "DELETE FROM carts WHERE order_id = ?", id) // want `database/sql DB.ExecContext under lock "order:" \+ id \(safelock Locker.TryAcquire\) never receives the lease's Fence\(\)`
	return err
}
