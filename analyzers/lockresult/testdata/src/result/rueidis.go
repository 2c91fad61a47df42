package result

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func rueidisLock(ctx context.Context, c rueidis.Client, token string) {
	c.Do(ctx, c.B().Set().Key("lock:report").Value(token).Nx().Px(time.Minute).Build()) // want `the result of SET NX of "lock:report" is discarded`
	process()
	c.Do(ctx, c.B().Del().Key("lock:report").Build())
}

func rueidisBlank(ctx context.Context, c rueidis.Client, token string) {
	_ = c.Do(ctx, c.B().Set().Key("lock:x").Value(token).Nx().Px(time.Minute).Build()).Error() // want `the result of SET NX of "lock:x" is discarded`
	process()
}
