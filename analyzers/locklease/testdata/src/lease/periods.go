package lease

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A minute's run marker that outlives its minute: once it lapses nobody
// takes the same key, so a long tick meets no second holder.
func tick(ctx context.Context, rdb *redis.Client, run func()) {
	key := "sync_run_lock:" + time.Now().UTC().Format("2006-01-02T15:04")
	if ok, _ := rdb.SetNX(ctx, key, "running", 4*time.Minute).Result(); !ok {
		return
	}
	time.Sleep(10 * time.Minute)
	run()
}

// A day's key with a minute's TTL: the next replica's tick the same day
// takes it while this one still sleeps.
func daily(ctx context.Context, rdb *redis.Client, run func()) {
	key := "report_run_lock:" + time.Now().Format("2006-01-02")
	if ok, _ := rdb.SetNX(ctx, key, "running", time.Minute).Result(); !ok {
		return
	}
	time.Sleep(10 * time.Minute) // want `can outlive`
	run()
}
