package fence

import (
	"context"
	"encoding/json"
	"time"
)

const boundUsersKey = "core:platforms:bound_users:v1"

// boundUsers is a read-through cache: a hit returns what was read, a miss
// loads the list and fills the key for two minutes.
func boundUsers(ctx context.Context) []int64 {
	if b, err := rdb.Get(ctx, boundUsersKey).Bytes(); err == nil {
		var cached []int64
		if json.Unmarshal(b, &cached) == nil {
			return cached
		}
	}
	ids := []int64{1, 2, 3} // from the database
	if b, err := json.Marshal(ids); err == nil {
		_ = rdb.Set(ctx, boundUsersKey, b, 2*time.Minute).Err()
	}
	return ids
}

// A cron tick under a lock refreshes the cache on its way: the fill is no
// write the lock protects.
func tick(ctx context.Context) {
	if ok, err := rdb.SetNX(ctx, "lock:cron:tick", "1", 4*time.Minute).Result(); err != nil || !ok {
		return
	}
	for range boundUsers(ctx) {
	}
}

// A reservation reads the key only to refuse a taken seat: its SET is the
// write the lock is for.
func reserveSeat(ctx context.Context, seat, user string) error {
	if ok, err := rdb.SetNX(ctx, "lock:seat:"+seat, user, 10*time.Second).Result(); err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:seat:"+seat)
	if taken, err := rdb.Get(ctx, "seat:"+seat).Result(); err == nil && taken != "" {
		return nil
	}
	return rdb.Set(ctx, "seat:"+seat, user, 15*time.Minute).Err() // want `Redis SET under lock "lock:seat:" \+ seat \(SET NX\) carries no fencing token`
}
