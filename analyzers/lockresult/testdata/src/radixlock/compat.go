package radixlock

import (
	"context"
	"time"

	"github.com/redis/rueidis/rueidiscompat"
)

func compatErrOnly(ctx context.Context, c rueidiscompat.Cmdable, id, token string) error {
	if err := c.SetNX(ctx, "compat:lock:"+id, token, 10*time.Second).Err(); err != nil { // want `only the error of SetNX of "compat:lock:" \+ id is checked`
		return err
	}
	work()
	return c.Del(ctx, "compat:lock:"+id).Err()
}

// Near miss: the bool is read.
func compatChecked(ctx context.Context, c rueidiscompat.Cmdable, id, token string) error {
	ok, err := c.SetNX(ctx, "compat2:lock:"+id, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	work()
	return c.Del(ctx, "compat2:lock:"+id).Err()
}
