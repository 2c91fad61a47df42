package fence

import (
	"context"
	"errors"
	"time"
)

var errTooFrequent = errors.New("too frequent, try again later")

var errBusy = errors.New("busy")

// A key nobody releases, whose refusal says the caller comes too often:
// a throttle (at most once a minute), not a lock; the write after it is
// shut out of nothing.
func sendCode(ctx context.Context, phone, code string) error {
	if !rdb.SetNX(ctx, "lock:sms:"+phone, "1", time.Minute).Val() {
		return errTooFrequent
	}
	_, err := db.ExecContext(ctx, "INSERT INTO sms_codes (phone, code) VALUES (?, ?)", phone, code)
	return err
}

// Near miss: the same refusal, but the key is released: a lock.
func sendCodeLocked(ctx context.Context, phone, code string) error {
	if !rdb.SetNX(ctx, "lock:sms:"+phone, "1", time.Minute).Val() {
		return errTooFrequent
	}
	defer rdb.Del(ctx, "lock:sms:"+phone)
	_, err := db.ExecContext(ctx, "INSERT INTO sms_codes (phone, code) VALUES (?, ?)", phone, code) // want `database/sql DB.ExecContext under lock "lock:sms:" \+ phone \(SET NX\) carries no fencing token`
	return err
}

// Near miss: never released, refused as busy: a run lock left to expire.
func nightlyReport(ctx context.Context) error {
	if !rdb.SetNX(ctx, "lock:nightly-report", "1", time.Hour).Val() {
		return errBusy
	}
	_, err := db.ExecContext(ctx, "UPDATE reports SET done = 1 WHERE day = CURRENT_DATE") // want `database/sql DB.ExecContext under lock "lock:nightly-report" \(SET NX\) carries no fencing token`
	return err
}

// The refusal tested apart from the error: still a throttle.
func sendCodeTwoTests(ctx context.Context, phone, code string) error {
	ok, err := rdb.SetNX(ctx, "lock:sms:"+phone, "1", time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errTooFrequent
	}
	_, err = db.ExecContext(ctx, "INSERT INTO sms_codes (phone, code) VALUES (?, ?)", phone, code)
	return err
}
