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

// A last-used time written at most once a minute per key: the NX key is a
// throttle left to expire, whatever the variable holding it is called, so
// the update needs no fence.
func touchLastUsed(ctx context.Context, id string) {
	lockKey := "api-key-touch:" + id
	if ok, _ := rdb.SetNX(ctx, lockKey, "1", time.Minute).Result(); !ok {
		return
	}
	_, _ = db.ExecContext(ctx, "UPDATE api_keys SET last_used = now() WHERE id = ?", id)
}

// Near miss: a daily job's lock left to expire; its key names no
// throttle, so the update under it needs a fence.
func dailyReport(ctx context.Context, day string) {
	lockKey := "report:daily:" + day
	if ok, _ := rdb.SetNX(ctx, lockKey, "1", time.Hour).Result(); !ok {
		return
	}
	_, _ = db.ExecContext(ctx, "UPDATE reports SET sent = 1 WHERE day = ?", day) // want `database/sql DB.ExecContext under lock lockKey \(SET NX\) carries no fencing token`
}

// Near miss: a key named as a cooldown but given back once the work is
// done is held like a lock.
func resendCode(ctx context.Context, phone string) {
	lockKey := "sms:cooldown:" + phone
	if ok, _ := rdb.SetNX(ctx, lockKey, "1", time.Minute).Result(); !ok {
		return
	}
	defer rdb.Del(ctx, lockKey)
	_, _ = db.ExecContext(ctx, "UPDATE phones SET sent_at = now() WHERE phone = ?", phone) // want `database/sql DB.ExecContext under lock lockKey \(SET NX\) carries no fencing token`
}
