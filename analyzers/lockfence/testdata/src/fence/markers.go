package fence

import (
	"context"
	"time"
)

// The processed mark after the work is a constant: a late write by a
// stale holder sets what is already set. (The event's own write is the
// callback's, not seen here.)
func handleOnce(ctx context.Context, id, token string, work func() error) error {
	lockKey := "event:lock:" + id
	ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, lockKey)
	if err := work(); err != nil {
		return err
	}
	processedKey := "event:processed:" + id
	return rdb.Set(ctx, processedKey, 1, 24*time.Hour).Err()
}

// Near miss: a result stored under the same name is data, not a mark.
func handleAndStore(ctx context.Context, id, token string, work func() (string, error)) error {
	lockKey := "event:lock:" + id
	ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, lockKey)
	out, err := work()
	if err != nil {
		return err
	}
	return rdb.Set(ctx, "event:processed:"+id, out, 24*time.Hour).Err() // want `Redis SET under lock lockKey \(SET NX\) carries no fencing token`
}

// Near miss: a constant written to a key that is not a record of work
// done is state (a status flag another holder may have moved on).
func markRunning(ctx context.Context, id, token string) error {
	lockKey := "job:lock:" + id
	ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, lockKey)
	return rdb.Set(ctx, "job:status:"+id, "running", time.Hour).Err() // want `Redis SET under lock lockKey \(SET NX\) carries no fencing token`
}

// A cache filled in two commands: SET, then EXPIRE of the same key.
func refillStock(ctx context.Context, id, token string, load func() int) error {
	lockKey := "stock:lock:" + id
	ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, lockKey)
	cacheKey := "stock:" + id
	if err := rdb.Set(ctx, cacheKey, load(), 0).Err(); err != nil {
		return err
	}
	return rdb.Expire(ctx, cacheKey, 5*time.Minute).Err()
}

// Near miss: without the EXPIRE it is kept for good, a store of record.
func storeStock(ctx context.Context, id, token string, load func() int) error {
	lockKey := "stock:lock:" + id
	ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, lockKey)
	cacheKey := "stock:" + id
	return rdb.Set(ctx, cacheKey, load(), 0).Err() // want `Redis SET under lock lockKey \(SET NX\) carries no fencing token`
}
