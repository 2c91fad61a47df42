// Package zmodel is shaped like go-zero's generated models: the
// interface callers get embeds the generated one, the custom type that
// implements it embeds the generated type, and the hand-written methods
// are the generated type's too, so both types implement both interfaces
// with the same methods.
package zmodel

import (
	"context"
	"database/sql"
)

type Wallet struct {
	ID      int64
	Balance int64
}

type (
	walletModel interface {
		FindOne(ctx context.Context, id int64) (*Wallet, error)
		Update(ctx context.Context, w *Wallet) error
	}

	defaultWalletModel struct{ db *sql.DB }
)

func (m *defaultWalletModel) FindOne(ctx context.Context, id int64) (*Wallet, error) {
	w := &Wallet{ID: id}
	err := m.db.QueryRowContext(ctx, "SELECT balance FROM wallet WHERE id = ?", id).Scan(&w.Balance)
	return w, err
}

func (m *defaultWalletModel) Update(ctx context.Context, w *Wallet) error {
	_, err := m.db.ExecContext(ctx, "UPDATE wallet SET balance = ? WHERE id = ?", w.Balance, w.ID)
	return err
}

type (
	// WalletModel is to be customised: methods added here are
	// implemented on defaultWalletModel, in a file of their own.
	WalletModel interface {
		walletModel
		Frozen(ctx context.Context, id int64) (bool, error)
	}

	customWalletModel struct{ *defaultWalletModel }
)

func (m *defaultWalletModel) Frozen(ctx context.Context, id int64) (bool, error) { return false, nil }

func NewWalletModel(db *sql.DB) WalletModel {
	return &customWalletModel{defaultWalletModel: &defaultWalletModel{db: db}}
}

// Ledger has two implementations that do not embed each other: which
// one a caller holds is not known.
type Ledger interface {
	Append(ctx context.Context, id, amount int64) error
}

type sqlLedger struct{ db *sql.DB }

func (l *sqlLedger) Append(ctx context.Context, id, amount int64) error {
	_, err := l.db.ExecContext(ctx, "UPDATE ledger SET total = total + ? WHERE id = ?", amount, id)
	return err
}

type memLedger struct{ m map[int64]int64 }

func (l *memLedger) Append(ctx context.Context, id, amount int64) error {
	l.m[id] += amount
	return nil
}

func NewLedger(db *sql.DB) Ledger {
	if db == nil {
		return &memLedger{m: map[int64]int64{}}
	}
	return &sqlLedger{db: db}
}
