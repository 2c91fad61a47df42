package expiry

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func rueidisLock(ctx context.Context, c rueidis.Client, key, token string) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Build()) // want `acquired with SET NX and given its TTL by a separate PEXPIRE`
	c.Do(ctx, c.B().Pexpire().Key(key).Milliseconds(30000).Build())
}

// Negative.
func rueidisGood(ctx context.Context, c rueidis.Client, key, token string) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(time.Second).Build())
	c.Do(ctx, c.B().Del().Key(key).Build())
}
