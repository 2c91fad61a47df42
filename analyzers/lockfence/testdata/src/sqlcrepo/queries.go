// Package sqlcrepo is shaped like sqlc's output for pgx: queries run
// through the package's own DBTX interface.
package sqlcrepo

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

type DBTX interface {
	Exec(context.Context, string, ...interface{}) (pgconn.CommandTag, error)
	Query(context.Context, string, ...interface{}) (pgx.Rows, error)
	QueryRow(context.Context, string, ...interface{}) pgx.Row
}

type Queries struct{ db DBTX }

func New(db DBTX) *Queries { return &Queries{db: db} }

const updateJobStatus = `-- name: UpdateJobStatus :one
UPDATE jobs SET status = $2 WHERE id = $1
RETURNING id, status`

type Job struct {
	ID     int32
	Status string
}

func (q *Queries) UpdateJobStatus(ctx context.Context, id int32, status string) (Job, error) {
	row := q.db.QueryRow(ctx, updateJobStatus, id, status)
	var i Job
	err := row.Scan(&i.ID, &i.Status)
	return i, err
}

const getJob = `-- name: GetJob :one
SELECT id, status FROM jobs WHERE id = $1`

func (q *Queries) GetJob(ctx context.Context, id int32) (Job, error) {
	row := q.db.QueryRow(ctx, getJob, id)
	var i Job
	err := row.Scan(&i.ID, &i.Status)
	return i, err
}
