package fence

import (
	"context"
	"time"
)

// The row itself refuses a second writer: the device id is set only while
// empty, and the state moves on only from 'pending'.
func setDevice(ctx context.Context, id, token, device string) error {
	key := "lock:device:" + id
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	if _, err := db.ExecContext(ctx, "UPDATE devices SET device_id = ? WHERE id = ? AND (device_id = '' OR device_id IS NULL)", device, id); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = ? AND state = 'pending'", id)
	return err
}

// A debit guarded by the balance alone: a stale holder still debits twice.
func debit(ctx context.Context, id, token string, amount int) error {
	key := "lock:wallet:" + id
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	_, err = db.ExecContext(ctx, "UPDATE wallets SET balance = balance - ? WHERE id = ? AND balance >= ?", amount, id, amount) // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token`
	return err
}
