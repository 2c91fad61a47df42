// Package pgconn is a fake of github.com/jackc/pgx/v5/pgconn for tests.
package pgconn

// CommandTag is what Exec returns.
type CommandTag struct{}
