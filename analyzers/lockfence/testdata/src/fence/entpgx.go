package fence

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"shopent"
)

var (
	ec  *shopent.Client
	pgp *pgxpool.Pool
)

// Writes through an ent client, in a helper of this package: reported at
// the call under the lock, the write's position in the message.
func entOrder(ctx context.Context, user int) error {
	lock, err := rl.Obtain(ctx, "order:user", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return placeOrder(ctx, user)
}

func placeOrder(ctx context.Context, user int) error {
	n, err := ec.Stock.Query().Where(shopent.IDEQ(1)).Count(ctx) // a read
	if err != nil || n == 0 {
		return err
	}
	if _, err := ec.Stock.Update().Where(shopent.And(shopent.IDEQ(1), shopent.StockGT(0))).AddStock(-1).Save(ctx); err != nil { // want `ent StockUpdate.Save under lock "order:user" \(redislock Client.Obtain\) carries no fencing token`
		return err
	}
	_, err = ec.Order.Create().SetUserID(user).Save(ctx)
	return err
}

// Near miss: the fence reaches the update and its predicate compares it.
func entFenced(ctx context.Context, user int, fence int64) error {
	lease, err := locker.TryAcquire(ctx, "order:user", 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	f := lease.Fence()
	_, err = ec.Stock.Update().Where(shopent.IDEQ(1), shopent.VersionLT(f)).SetVersion(f).AddStock(-1).Save(ctx)
	return err
}

// The fence reaches the update, but no predicate compares it.
func entNoCondition(ctx context.Context, user int) error {
	lease, err := locker.TryAcquire(ctx, "order:user", 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = ec.Stock.Update().Where(shopent.IDEQ(1)).SetVersion(lease.Fence()).Save(ctx) // want `the fencing token reaches this ent StockUpdate.Save, but the statement has no fence condition`
	return err
}

func pgxUpdate(ctx context.Context, id string) error {
	mu := rs.NewMutex("pay:" + id)
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	if _, err := pgp.Exec(ctx, "SELECT 1"); err != nil { // a read
		return err
	}
	_, err := pgp.Exec(ctx, "UPDATE payments SET state = 'done' WHERE id = $1", id) // want `pgx Pool.Exec under lock "pay:" \+ id \(redsync Mutex.Lock\) carries no fencing token`
	return err
}
