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
