// Package walletapp implements walletdomain.Repository with gorm and
// takes its redsync locks through a helper that returns the locked mutex.
package walletapp

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"gorm.io/gorm"

	"walletdomain"
)

type repo struct{ db *gorm.DB }

func (r *repo) Get(ctx context.Context, id string) (*walletdomain.Wallet, error) {
	var w walletdomain.Wallet
	return &w, r.db.WithContext(ctx).Where("id = ?", id).Take(&w).Error
}

func (r *repo) SaveBalance(ctx context.Context, w walletdomain.Wallet) error {
	return r.db.WithContext(ctx).Table("wallets").Where("id = ?", w.ID).Update("balance", w.Balance).Error
}

type Usecase struct {
	rs   *redsync.Redsync
	repo walletdomain.Repository
}

func (u *Usecase) walletLock(id string) (*redsync.Mutex, error) {
	m := u.rs.NewMutex("wallet-" + id)
	if err := m.Lock(); err != nil {
		return nil, err
	}
	return m, nil
}

func (u *Usecase) Deposit(ctx context.Context, id string, amount int64) error {
	w, err := u.repo.Get(ctx, id)
	if err != nil {
		return err
	}
	m, err := u.walletLock(id)
	if err != nil {
		return err
	}
	w.Balance += amount
	if err := u.repo.SaveBalance(ctx, *w); err != nil { // want `u.repo.SaveBalance \(gorm DB.Update at usecase.go:22\) under a lock \(Usecase.walletLock \(redsync Mutex.Lock\)\) carries no fencing token`
		return err
	}
	_, err = m.Unlock()
	return err
}

// Near miss: this helper gives the lock back before it returns; its
// caller holds nothing.
func (u *Usecase) lockedCopy(id string) (*redsync.Mutex, error) {
	m := u.rs.NewMutex("wallet-copy-" + id)
	if err := m.Lock(); err != nil {
		return nil, err
	}
	defer m.Unlock()
	return m, nil
}

func (u *Usecase) Adjust(ctx context.Context, id string, amount int64) error {
	if _, err := u.lockedCopy(id); err != nil {
		return err
	}
	return u.repo.SaveBalance(ctx, walletdomain.Wallet{ID: id, Balance: amount})
}

// The lock from the helper alone: a write of the use case's own.
func (u *Usecase) Freeze(ctx context.Context, db *gorm.DB, id string) error {
	m, err := u.walletLock(id)
	if err != nil {
		return err
	}
	defer m.Unlock()
	return db.WithContext(ctx).Table("wallets").Where("id = ?", id).Update("frozen", true).Error // want `gorm DB.Update under a lock \(Usecase.walletLock \(redsync Mutex.Lock\)\) carries no fencing token`
}

// The domain interface alone: a redsync lock taken in place.
func (u *Usecase) Refund(ctx context.Context, id string, amount int64) error {
	m := u.rs.NewMutex("wallet-" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return u.repo.SaveBalance(ctx, walletdomain.Wallet{ID: id, Balance: amount}) // want `u.repo.SaveBalance \(gorm DB.Update at usecase.go:22\) under lock "wallet-" \+ id \(redsync Mutex.Lock\) carries no fencing token`
}
