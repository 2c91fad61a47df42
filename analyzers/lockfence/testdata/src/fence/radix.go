package fence

import (
	"context"
	"database/sql"

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
