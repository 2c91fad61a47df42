// Package repo writes jobs to SQL, for callers in other packages.
package repo

import (
	"context"
	"database/sql"
)

func Archive(ctx context.Context, db *sql.DB, id string) error {
	return exec(ctx, db, "UPDATE jobs SET archived = 1 WHERE id = ?", id)
}

func ArchiveFenced(ctx context.Context, db *sql.DB, id string, fence int64) error {
	return exec(ctx, db, "UPDATE jobs SET archived = 1, fence = ? WHERE id = ? AND fence < ?", fence, id, fence)
}

func exec(ctx context.Context, db *sql.DB, q string, args ...any) error {
	_, err := db.ExecContext(ctx, q, args...)
	return err
}
