package repo

import (
	"context"
	"database/sql"
)

// Orders has one implementation in this package: a call through it can
// only reach OrderDB.
type Orders interface {
	Cancel(ctx context.Context, id string) error
}

type OrderDB struct{ db *sql.DB }

func NewOrderDB(db *sql.DB) Orders { return &OrderDB{db: db} }

func (o *OrderDB) Cancel(ctx context.Context, id string) error {
	_, err := o.db.ExecContext(ctx, "UPDATE orders SET state = 'cancelled' WHERE id = ?", id)
	return err
}

// Ledger has two implementations: a call through it may reach either.
type Ledger interface {
	Post(ctx context.Context, id string) error
}

type SQLLedger struct{ db *sql.DB }

func (l SQLLedger) Post(ctx context.Context, id string) error {
	_, err := l.db.ExecContext(ctx, "UPDATE ledger SET posted = 1 WHERE id = ?", id)
	return err
}

type MemLedger struct{ posted map[string]bool }

func (l MemLedger) Post(ctx context.Context, id string) error {
	l.posted[id] = true
	return nil
}
