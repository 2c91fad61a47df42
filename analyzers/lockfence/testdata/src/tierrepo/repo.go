// Package tierrepo is a repository behind an interface, with its only
// implementation beside it: one method reads a tier with a row lock in
// the caller's transaction, another without.
package tierrepo

import (
	"context"
	"database/sql"
)

type Tier struct {
	ID    string
	Quota int
	Sold  int
}

type Repository interface {
	GetForUpdate(ctx context.Context, tx *sql.Tx, id string) (*Tier, error)
	Get(ctx context.Context, tx *sql.Tx, id string) (*Tier, error)
	AddSold(ctx context.Context, tx *sql.Tx, id string, n int) error
}

type repo struct{ db *sql.DB }

func New(db *sql.DB) Repository { return &repo{db: db} }

func (r *repo) GetForUpdate(ctx context.Context, tx *sql.Tx, id string) (*Tier, error) {
	t := &Tier{ID: id}
	err := tx.QueryRowContext(ctx, `SELECT quota, sold FROM tiers WHERE id = $1 FOR UPDATE`, id).Scan(&t.Quota, &t.Sold)
	return t, err
}

func (r *repo) Get(ctx context.Context, tx *sql.Tx, id string) (*Tier, error) {
	t := &Tier{ID: id}
	err := tx.QueryRowContext(ctx, `SELECT quota, sold FROM tiers WHERE id = $1`, id).Scan(&t.Quota, &t.Sold)
	return t, err
}

func (r *repo) AddSold(ctx context.Context, tx *sql.Tx, id string, n int) error {
	_, err := tx.ExecContext(ctx, `UPDATE tiers SET sold = sold + $1 WHERE id = $2`, n, id)
	return err
}
