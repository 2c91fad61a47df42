package radixlock

import (
	"context"
	"time"

	"github.com/redis/rueidis/rueidiscompat"
)

var compatRelease = rueidiscompat.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func compatLock(ctx context.Context, c rueidiscompat.Cmdable, id, token string) (bool, error) {
	return c.SetNX(ctx, "compat:lock:"+id, token, 10*time.Second).Result()
}

func compatUnlock(ctx context.Context, c rueidiscompat.Cmdable, id string) error {
	return c.Del(ctx, "compat:lock:"+id).Err() // want `lock "compat:lock:" \+ id is deleted with DEL without checking that this holder still owns it`
}

// Near miss: the compat Script compares and deletes.
func compatLock2(ctx context.Context, c rueidiscompat.Cmdable, id, token string) (bool, error) {
	return c.SetNX(ctx, "compat2:lock:"+id, token, 10*time.Second).Result()
}

func compatUnlock2(ctx context.Context, c rueidiscompat.Cmdable, id, token string) error {
	return compatRelease.Run(ctx, c, []string{"compat2:lock:" + id}, token).Err()
}
