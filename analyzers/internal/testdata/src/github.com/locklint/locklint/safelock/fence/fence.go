// Package fence is a minimal stand-in for github.com/locklint/locklint/safelock/fence,
// safelock's protected-resource helpers, for analyzer tests.
package fence

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"
)

// Grant is what a fenced write needs from a lease.
type Grant interface {
	Fence() int64
}

func Of(fence int64, token string) Grant { return grant{fence} }

type grant struct{ fence int64 }

func (g grant) Fence() int64 { return g.fence }

type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type Table struct {
	Name, IDColumn, FenceColumn string
	Dollar                      bool
}

type Column struct {
	Name  string
	Value any
}

func Set(name string, value any) Column { return Column{Name: name, Value: value} }

// Update runs UPDATE ... WHERE id = ? AND (fence IS NULL OR fence <= ?).
func (t Table) Update(ctx context.Context, db Execer, id any, g Grant, set ...Column) (bool, error) {
	return false, nil
}

func (t Table) Upsert(ctx context.Context, db Execer, id any, g Grant, set ...Column) (bool, error) {
	return false, nil
}

// SetRedis stores value under key unless a higher fence was seen.
func SetRedis(ctx context.Context, c redis.Scripter, key string, g Grant, value any) (bool, error) {
	return false, nil
}
