package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Querier is the statement half of *sql.DB and *sql.Tx, as projects
// declare it (sqlc calls it DBTX) so that a helper runs in or out of a
// transaction; nothing in this package implements it.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Ledger is not database/sql: its Exec returns no sql.Result.
type Ledger interface {
	Exec(query string, args ...any) (int, error)
}

type Payouts struct {
	rdb    *redis.Client
	q      Querier
	ledger Ledger
	token  string
}

func (p *Payouts) Settle(ctx context.Context, miner string) error {
	ok, err := p.rdb.SetNX(ctx, "payout:"+miner, p.token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer p.rdb.Del(ctx, "payout:"+miner)
	var due int64
	if err := p.q.QueryRowContext(ctx, "SELECT due FROM balances WHERE miner = ?", miner).Scan(&due); err != nil {
		return err
	}
	if _, err := p.ledger.Exec("UPDATE balances SET due = 0 WHERE miner = ?", miner); err != nil {
		return err
	}
	_, err = p.q.ExecContext(ctx, "UPDATE balances SET due = 0 WHERE miner = ?", miner) // want `jobs Querier.ExecContext under lock "payout:" \+ miner \(SET NX\) carries no fencing token`
	return err
}

// markPaid writes through the interface in a helper, as repositories do;
// called only under the lock, it is reported at its write.
func markPaid(ctx context.Context, q Querier, miner string) error {
	_, err := q.ExecContext(ctx, "INSERT INTO payouts (miner) VALUES (?)", miner) // want `jobs Querier.ExecContext under lock "payout:" \+ miner \(SET NX\) carries no fencing token`
	return err
}

func (p *Payouts) Record(ctx context.Context, miner string) error {
	ok, err := p.rdb.SetNX(ctx, "payout:"+miner, p.token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer p.rdb.Del(ctx, "payout:"+miner)
	return markPaid(ctx, p.q, miner) // the helper is this section's own code: reported at its write
}

// Statement builders of the package: the text starts with the verb.
func insertStmt(table string, cols []string) string {
	stmt := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(cols, ", "), strings.Repeat("?, ", len(cols)-1)+"?")
	return stmt
}

func countStmt(table string) string {
	return fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE miner = ?", table)
}

func (p *Payouts) Archive(ctx context.Context, miner string) error {
	ok, err := p.rdb.SetNX(ctx, "payout:"+miner, p.token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer p.rdb.Del(ctx, "payout:"+miner)
	var n int
	if err := p.q.QueryRowContext(ctx, countStmt("payouts"), miner).Scan(&n); err != nil {
		return err
	}
	_, err = p.q.ExecContext(ctx, insertStmt("archive", []string{"miner", "n"}), miner, n) // want `jobs Querier.ExecContext under lock "payout:" \+ miner \(SET NX\) carries no fencing token`
	return err
}
