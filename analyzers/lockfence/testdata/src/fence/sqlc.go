package fence

import (
	"context"
	"time"

	"sqlcrepo"
)

var queries *sqlcrepo.Queries

// sqlc's :one UPDATE ... RETURNING runs through QueryRow: a write.
func runJob(ctx context.Context, id int32, token string) {
	key := "job:lock:" + token
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, key)
	job, err := queries.GetJob(ctx, id) // a read
	if err != nil || job.Status != "pending" {
		return
	}
	queries.UpdateJobStatus(ctx, id, "running") // want `queries.UpdateJobStatus \(pgx DBTX.QueryRow at queries.go:\d+\) under lock key \(SET NX\) carries no fencing token`
}
