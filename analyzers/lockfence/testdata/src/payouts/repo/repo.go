// Package repo writes withdrawals in a transaction its callers open.
package repo

import (
	"context"
	"database/sql"
)

var db *sql.DB

type Repo struct{ tx *sql.Tx }

// WithTx runs fn in a transaction.
func WithTx(ctx context.Context, fn func(r *Repo) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(&Repo{tx: tx}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (r *Repo) SaveWithdrawal(ctx context.Context, id, hash string) error {
	_, err := r.tx.ExecContext(ctx, "UPDATE withdrawals SET hash = ?, status = 'sent' WHERE id = ?", hash, id)
	return err
}
