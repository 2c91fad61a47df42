// Package pgx is a fake of github.com/jackc/pgx/v5 for tests.
package pgx

// Row is one row of a QueryRow.
type Row interface {
	Scan(dest ...any) error
}

// Rows are the rows of a Query.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Close()
}
