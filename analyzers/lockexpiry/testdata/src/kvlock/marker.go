package kvlock

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// A "processing" marker taken with NX and cleared when the work is done
// is a lock on that work, even without the word lock.
type Daemon struct{ rdb *redis.Client }

func (d *Daemon) MarkGuildProcessing(ctx context.Context, guild uint64) (bool, error) {
	key := fmt.Sprintf("importsync:%d", guild)
	return d.rdb.SetNX(ctx, key, "1", 0).Result() // want `lock key is acquired with SET NX without a TTL`
}

func (d *Daemon) MarkGuildProcessed(ctx context.Context, guild uint64) error {
	key := fmt.Sprintf("importsync:%d", guild)
	return d.rdb.Del(ctx, key).Err()
}

// Pause and Resume toggle a state flag: held until resumed, by design.
func (d *Daemon) Pause(ctx context.Context, queue string) (bool, error) {
	return d.rdb.SetNX(ctx, "paused:"+queue, "1", 0).Result()
}

func (d *Daemon) Resume(ctx context.Context, queue string) error {
	return d.rdb.Del(ctx, "paused:"+queue).Err()
}
