package fence

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A stream write under a lock: XADD with its key in XAddArgs.
func requeueIdle(ctx context.Context, stream, id, token string) error {
	key := "requeue:lock:" + stream
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	if err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: stream, Values: map[string]any{"id": id}}).Err(); err != nil { // want `Redis XADD under lock key \(SET NX\) carries no fencing token`
		return err
	}
	return rdb.XAck(ctx, stream, "group", id).Err()
}

// Acknowledging and deleting a message are idempotent: a stale holder's
// late XACK or XDEL repeats what the new holder does.
func ackIdle(ctx context.Context, stream, id, token string) error {
	key := "ack:lock:" + stream
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	if err := rdb.XAck(ctx, stream, "group", id).Err(); err != nil {
		return err
	}
	return rdb.XDel(ctx, stream, id).Err()
}
