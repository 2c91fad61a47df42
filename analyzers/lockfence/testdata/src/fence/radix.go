package fence

import (
	"context"
	"database/sql"

	"github.com/mediocregopher/radix.v2/pool"
	"github.com/mediocregopher/radix.v2/util"
	radix "github.com/mediocregopher/radix/v3"
)

var radixRelease = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// A radix lock: the reply goes into res, and res says whether the lock
// was taken; the UPDATE runs only then.
func radixPayout(ctx context.Context, p *radix.Pool, db *sql.DB, id, token string) error {
	var res string
	if err := p.Do(radix.Cmd(&res, "SET", "payout:lock:"+id, token, "NX", "EX", "30")); err != nil {
		return err
	}
	if res != "OK" {
		// Not taken: this write runs without the lock, so it is no
		// write under the lock.
		_, err := db.ExecContext(ctx, "UPDATE payouts SET retries = retries + 1 WHERE id = ?", id)
		return err
	}
	defer p.Do(radixRelease.Cmd(nil, "payout:lock:"+id, token))
	_, err := db.ExecContext(ctx, "UPDATE payouts SET paid = 1 WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "payout:lock:" \+ id \(SET NX\) carries no fencing token`
	return err
}

// radix.MaybeNil says whether the reply was nil: Nil means the key was
// held, and the write on that branch runs without the lock.
func radixPayoutMaybe(ctx context.Context, p *radix.Pool, db *sql.DB, id, token string) error {
	var mn radix.MaybeNil
	if err := p.Do(radix.Cmd(&mn, "SET", "payout2:lock:"+id, token, "NX", "EX", "30")); err != nil {
		return err
	}
	if mn.Nil {
		_, err := db.ExecContext(ctx, "UPDATE payouts SET retries = retries + 1 WHERE id = ?", id)
		return err
	}
	defer p.Do(radixRelease.Cmd(nil, "payout2:lock:"+id, token))
	_, err := db.ExecContext(ctx, "UPDATE payouts SET paid = 1 WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "payout2:lock:" \+ id \(SET NX\) carries no fencing token`
	return err
}

// radix.v2: the reply comes back from Cmd; Str fails on a nil reply.
func radixV2Payout(ctx context.Context, p *pool.Pool, db *sql.DB, id, token string) error {
	s, err := p.Cmd("SET", "payout3:lock:"+id, token, "NX", "EX", 30).Str()
	if err != nil || s != "OK" {
		_, err := db.ExecContext(ctx, "UPDATE payouts SET retries = retries + 1 WHERE id = ?", id)
		return err
	}
	defer util.LuaEval(p, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, 1, "payout3:lock:"+id, token)
	_, err = db.ExecContext(ctx, "UPDATE payouts SET paid = 1 WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "payout3:lock:" \+ id \(SET NX\) carries no fencing token`
	return err
}

// radixAll runs the actions it is handed, one by one.
func radixAll(p *radix.Pool, actions ...radix.CmdAction) error {
	for _, a := range actions {
		if err := p.Do(a); err != nil {
			return err
		}
	}
	return nil
}

// A radix action is a value: the commands go out at the call it is
// handed to, which is where the report belongs.
func radixHanded(p *radix.Pool, channel, token string) error {
	var res string
	if err := p.Do(radix.Cmd(&res, "SET", "channels:lock", token, "NX", "EX", "10")); err != nil || res != "OK" {
		return err
	}
	defer p.Do(radixRelease.Cmd(nil, "channels:lock", token))
	return radixAll(p, // want `Redis ZREM under lock "channels:lock" \(SET NX\) carries no fencing token`
		radix.Cmd(nil, "DEL", "last:"+channel),
		radix.Cmd(nil, "ZREM", "watched", channel),
	)
}
