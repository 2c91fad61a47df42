// Package walletapp2 has two implementations of walletdomain.Repository:
// which one a use case holds is not known here, so neither's writes are
// taken for the call's.
package walletapp2

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"gorm.io/gorm"

	"walletdomain"
)

type sqlRepo struct{ db *gorm.DB }

func (r *sqlRepo) Get(ctx context.Context, id string) (*walletdomain.Wallet, error) {
	return &walletdomain.Wallet{ID: id}, nil
}

func (r *sqlRepo) SaveBalance(ctx context.Context, w walletdomain.Wallet) error {
	return r.db.WithContext(ctx).Table("wallets").Where("id = ?", w.ID).Update("balance", w.Balance).Error
}

type memRepo struct{ m map[string]int64 }

func (r *memRepo) Get(ctx context.Context, id string) (*walletdomain.Wallet, error) {
	return &walletdomain.Wallet{ID: id, Balance: r.m[id]}, nil
}

func (r *memRepo) SaveBalance(ctx context.Context, w walletdomain.Wallet) error {
	r.m[w.ID] = w.Balance
	return nil
}

func Deposit(ctx context.Context, rs *redsync.Redsync, repo walletdomain.Repository, id string, amount int64) error {
	m := rs.NewMutex("wallet-" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return repo.SaveBalance(ctx, walletdomain.Wallet{ID: id, Balance: amount})
}
