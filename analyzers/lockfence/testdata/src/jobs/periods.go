package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// A cron tick's run marker: the key names one minute and outlives it, so
// once it lapses nobody can take it again (the next tick has its own
// key), and no later holder exists to be fenced against.
func distributeTick(ctx context.Context, rdb *redis.Client, db *sql.DB) error {
	suffix := time.Now().UTC().Format("2006-01-02-15:04")
	key := fmt.Sprintf("recordings_run_lock:%s", suffix)
	ok, err := rdb.SetNX(ctx, key, "running", 4*time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO runs (kind) VALUES ('recordings')")
	return err
}

// A day's key whose TTL is a minute: after it lapses the same day, the
// next replica's tick takes the same key while this one still writes.
func billDay(ctx context.Context, rdb *redis.Client, db *sql.DB) error {
	key := "billing_run_lock:" + time.Now().Format("2006-01-02")
	ok, err := rdb.SetNX(ctx, key, "running", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO runs (kind) VALUES ('billing')") // want `carries no fencing token`
	return err
}
