// Package zwallet is a go-zero style model whose methods take the
// transaction's Session.
package zwallet

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

type Wallet struct {
	UID, Balance int64
	Note         sql.NullString
}

type (
	walletModel interface {
		FindOneForUpdate(ctx context.Context, session sqlx.Session, uid int64) (*Wallet, error)
		FindOne(ctx context.Context, session sqlx.Session, uid int64) (*Wallet, error)
		UpdateBalance(ctx context.Context, session sqlx.Session, uid, balance int64) error
		InsertLog(ctx context.Context, session sqlx.Session, uid int64, note string) error
		Trans(ctx context.Context, fn func(context.Context, sqlx.Session) error) error
	}
	defaultWalletModel struct{ conn sqlx.TxConn }

	WalletModel interface{ walletModel }

	customWalletModel struct{ *defaultWalletModel }
)

func NewWalletModel(conn sqlx.TxConn) WalletModel {
	return &customWalletModel{&defaultWalletModel{conn: conn}}
}

func (m *defaultWalletModel) FindOneForUpdate(ctx context.Context, session sqlx.Session, uid int64) (*Wallet, error) {
	query := fmt.Sprintf("SELECT uid, balance FROM %s WHERE uid = ? FOR UPDATE", "wallet")
	var w Wallet
	err := session.QueryRowCtx(ctx, &w, query, uid)
	return &w, err
}

func (m *defaultWalletModel) FindOne(ctx context.Context, session sqlx.Session, uid int64) (*Wallet, error) {
	var w Wallet
	err := session.QueryRowCtx(ctx, &w, "SELECT uid, balance FROM wallet WHERE uid = ?", uid)
	return &w, err
}

func (m *defaultWalletModel) UpdateBalance(ctx context.Context, session sqlx.Session, uid, balance int64) error {
	_, err := session.ExecCtx(ctx, "UPDATE wallet SET balance = ? WHERE uid = ?", balance, uid)
	return err
}

func (m *defaultWalletModel) InsertLog(ctx context.Context, session sqlx.Session, uid int64, note string) error {
	_, err := session.ExecCtx(ctx, "INSERT INTO wallet_log (uid, note) VALUES (?, ?)", uid, note)
	return err
}

func (m *defaultWalletModel) Trans(ctx context.Context, fn func(context.Context, sqlx.Session) error) error {
	return m.conn.TransactCtx(ctx, func(ctx context.Context, session sqlx.Session) error {
		return fn(ctx, session)
	})
}
