// Package store is the project's SQL store; the job package declares the
// narrow interfaces it needs and main wires this package's types into
// them.
package store

import (
	"context"
	"database/sql"
	"net/http"
)

type Stock struct{ ID string }

type StockStore struct{ db *sql.DB }

// Allocate takes a free profile from the stock.
func (s *StockStore) Allocate(ctx context.Context, operator string) (*Stock, error) {
	_, err := s.db.ExecContext(ctx, "UPDATE stock SET state = 'allocated' WHERE operator = ?", operator)
	return &Stock{}, err
}

// Progress records how far a job got: it has the shape of any counter.
func (s *StockStore) Progress(ctx context.Context, n int) error {
	_, err := s.db.ExecContext(ctx, "UPDATE jobs SET progress = ?", n)
	return err
}

type Entry struct{ What string }

type SQLAudit struct{ db *sql.DB }

func (a *SQLAudit) Record(ctx context.Context, e Entry) error {
	_, err := a.db.ExecContext(ctx, "INSERT INTO audit (what) VALUES (?)", e.What)
	return err
}

type MemAudit struct{ entries []string }

func (m *MemAudit) Record(ctx context.Context, e Entry) error {
	m.entries = append(m.entries, e.What)
	return nil
}

// Recorder keeps an HTTP response in a table; it is an
// http.ResponseWriter.
type Recorder struct{ db *sql.DB }

func (r *Recorder) Header() http.Header { return http.Header{} }
func (r *Recorder) WriteHeader(int)     {}

func (r *Recorder) Write(p []byte) (int, error) {
	_, err := r.db.Exec("INSERT INTO responses (body) VALUES (?)", string(p))
	return len(p), err
}
