package expiry

import (
	"context"
	"time"
)

// A paused marker set with NX and cleared by another function is a state
// flag, not a lock: it is meant to stay until Resume, so no TTL is right.

func pausedKey(queue string) string { return "queue:" + queue + ":paused" }

func Pause(ctx context.Context, queue string) (bool, error) {
	key := pausedKey(queue)
	return rdb.SetNX(ctx, key, time.Now().Unix(), 0).Result()
}

func Resume(ctx context.Context, queue string) error {
	key := pausedKey(queue)
	return rdb.Del(ctx, key).Err()
}

// The same shape on a key named as a lock is still a lock held forever.

func queueLockKey(queue string) string { return "queue:" + queue + ":lock" }

func Drain(ctx context.Context, queue string) (bool, error) {
	key := queueLockKey(queue)
	return rdb.SetNX(ctx, key, time.Now().Unix(), 0).Result() // want `lock key is acquired with SET NX without a TTL`
}

func Undrain(ctx context.Context, queue string) error {
	key := queueLockKey(queue)
	return rdb.Del(ctx, key).Err()
}
