package fence

import (
	"context"
	"errors"
	"time"

	"github.com/gogf/gf/v2/database/gdb"
)

var gfdb gdb.DB

// GoFrame model writes under a lock, inside the ORM's transaction
// closure: a stale holder's debit still lands.
func buyIn(ctx context.Context, table, seat int64, user string, chips int64) error {
	key := "seat_lock:" + user
	if ok, err := rdb.SetNX(ctx, key, user, 10*time.Second).Result(); err != nil || !ok {
		return errors.New("seat taken")
	}
	defer rdb.Del(ctx, key)
	if n, err := gfdb.Model("table_seats").Where("table_id", table).Count(); err != nil || n > 0 { // a read
		return err
	}
	return gfdb.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		if _, err := tx.Model("user_wallets").Where("user_id", user).Data(gdb.Map{"chips": gdb.Raw("chips - 1")}).Update(); err != nil { // want `gdb Model.Update under lock key \(SET NX\) carries no fencing token`
			return err
		}
		_, err := tx.Model("buyin_records").Data(gdb.Map{"user_id": user, "amount": chips}).Insert() // a second write: the report names the first
		return err
	})
}

// The lease's fence in the condition (WhereLT) and in the row: the
// database refuses a stale holder.
func buyInFenced(ctx context.Context, user string, chips int64) error {
	lease, err := locker.TryAcquire(ctx, "seat:"+user, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = gfdb.Model("user_wallets").Where("user_id", user).WhereLT("fence", lease.Fence()).
		Data(gdb.Map{"chips": chips, "fence": lease.Fence()}).Update()
	return err
}

// The same with the condition written out in Where.
func buyInFencedWhere(ctx context.Context, user string, chips int64) error {
	lease, err := locker.TryAcquire(ctx, "seat2:"+user, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = gfdb.Model("user_wallets").Where("user_id = ? AND fence < ?", user, lease.Fence()).
		Data(gdb.Map{"chips": chips, "fence": lease.Fence()}).Update()
	return err
}

// A lock around reads only: the model's Scan fills GoFrame's query cache
// in Redis on the way, which is not a write the lock protects.
func listSeats(ctx context.Context, table int64) ([]string, error) {
	key := "seat_list_lock"
	if ok, err := rdb.SetNX(ctx, key, "1", 10*time.Second).Result(); err != nil || !ok {
		return nil, errors.New("busy")
	}
	defer rdb.Del(ctx, key)
	var seats []string
	err := gfdb.Model("table_seats").Where("table_id", table).Scan(&seats)
	return seats, err
}
