package fence

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A compare-and-set: the script writes the marker only while it still
// holds the value this holder read, so a late run changes nothing.
var finalizeMarker = redis.NewScript(`local current = redis.call("GET", KEYS[1])
if current == ARGV[1] then
	redis.call("SET", KEYS[1], ARGV[2])
	return 1
end
return 0`)

// A write checked against the lock's own token in the same script.
var saveIfOwner = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	redis.call("HSET", KEYS[2], "state", ARGV[2])
	return 1
end
return 0`)

// An unconditional write.
var saveState = redis.NewScript(`redis.call("HSET", KEYS[1], "state", ARGV[1])
return 1`)

func casMarker(ctx context.Context, app, expected, token string) error {
	key := "recovery:lock:" + app
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	return finalizeMarker.Run(ctx, rdb, []string{"bootstrap:" + app}, expected, "done:"+token).Err()
}

func ownerCheckedScript(ctx context.Context, app, token string) error {
	key := "save:lock:" + app
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	return saveIfOwner.Run(ctx, rdb, []string{key, "app:" + app}, token, "saved").Err()
}

func unconditionalScript(ctx context.Context, app, token string) error {
	key := "state:lock:" + app
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	return saveState.Run(ctx, rdb, []string{"app:" + app}, "saved").Err() // want `Redis script under lock key \(SET NX\) carries no fencing token`
}
