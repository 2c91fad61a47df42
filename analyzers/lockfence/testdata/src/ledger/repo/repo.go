// Package repo keeps wallets with a version column.
package repo

import (
	"context"
	"database/sql"
	"errors"
)

var ErrConflict = errors.New("wallet changed since it was read")

type Repo struct{ db *sql.DB }

// UpdateBalance moves the wallet on from the version it was read at, and
// says so with an error when another writer got there first.
func (r *Repo) UpdateBalance(ctx context.Context, tx *sql.Tx, id string, balance, version int64) error {
	res, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = ?, version = version + 1 WHERE id = ? AND version = ?", balance, id, version)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrConflict
	}
	return nil
}

// SetBalance has the same guard but does not look at the rows it
// changed: a stale version changes nothing and reports success.
func (r *Repo) SetBalance(ctx context.Context, tx *sql.Tx, id string, balance, version int64) error {
	_, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = ?, version = version + 1 WHERE id = ? AND version = ?", balance, id, version)
	return err
}

func (r *Repo) AddEntry(ctx context.Context, tx *sql.Tx, id string, amount int64) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO ledger (wallet_id, amount) VALUES (?, ?)", id, amount)
	return err
}
