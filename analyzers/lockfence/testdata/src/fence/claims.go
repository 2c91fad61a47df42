package fence

import (
	"context"
	"errors"
	"time"
)

// A "payment in progress" flag is kept when the payment starts and is
// cleared only when starting it failed: a claim on the order, not a lock
// around the insert, so the insert needs no fence.
func startPayment(ctx context.Context, order, token string) error {
	key := "pay:lock:" + order
	ok, err := rdb.SetNX(ctx, key, token, 30*time.Minute).Result()
	if err != nil || !ok {
		return errors.New("payment in progress")
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO payments (order_id) VALUES (?)", order); err != nil {
		rdb.Del(ctx, key)
		return err
	}
	return nil
}

// Near miss: the same shape given back also when the insert succeeded is
// a lock around it.
func capturePayment(ctx context.Context, order, token string) error {
	key := "capture:lock:" + order
	ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
	if err != nil || !ok {
		return errors.New("capture in progress")
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO captures (order_id) VALUES (?)", order); err != nil { // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token`
		rdb.Del(ctx, key)
		return err
	}
	rdb.Del(ctx, key)
	return nil
}
