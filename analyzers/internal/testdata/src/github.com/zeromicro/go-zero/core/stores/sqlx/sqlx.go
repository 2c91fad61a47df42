// Package sqlx is a stand-in for go-zero's core/stores/sqlx.
package sqlx

import (
	"context"
	"database/sql"
)

type SqlConn interface {
	ExecCtx(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowCtx(ctx context.Context, v any, query string, args ...any) error
}

// Session is what TransactCtx hands its callback: the transaction.
type Session interface {
	ExecCtx(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowCtx(ctx context.Context, v any, query string, args ...any) error
}

// TxConn is a SqlConn that runs transactions.
type TxConn interface {
	SqlConn
	TransactCtx(ctx context.Context, fn func(context.Context, Session) error) error
}

var ErrNotFound = sql.ErrNoRows
