// Package flaghelp sets and clears a marker with NX and no TTL in two
// functions, with no lock word anywhere: its own package judges it a
// flag, not a lock.
package flaghelp

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func MarkBusy(ctx context.Context, rdb *redis.Client, id string) (bool, error) {
	return rdb.SetNX(ctx, "busy:"+id, "1", 0).Result()
}

func ClearBusy(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.Del(ctx, "busy:"+id).Err()
}
