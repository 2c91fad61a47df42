// Package pgxpool is a fake of github.com/jackc/pgx/v5/pgxpool for tests.
package pgxpool

import "context"

type CommandTag struct{}

type Pool struct{}

func (p *Pool) Exec(ctx context.Context, sql string, args ...any) (CommandTag, error) {
	return CommandTag{}, nil
}
