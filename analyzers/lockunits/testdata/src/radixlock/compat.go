package radixlock

import (
	"context"
	"time"

	"github.com/redis/rueidis/rueidiscompat"
)

// rueidiscompat's SetNX takes a time.Duration, as go-redis's does.
func compatLock(ctx context.Context, c rueidiscompat.Cmdable, id, token string) (bool, error) {
	return c.SetNX(ctx, "compat:lock:"+id, token, 30).Result() // want `SetNX takes a time.Duration, so TTL 30 is 30 nanoseconds: rueidiscompat sends PX 1`
}

// Near miss: a Duration.
func compatLockOK(ctx context.Context, c rueidiscompat.Cmdable, id, token string) (bool, error) {
	return c.SetNX(ctx, "compat2:lock:"+id, token, 30*time.Second).Result()
}
