package release

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func rueidisLock(ctx context.Context, c rueidis.Client, key, token string) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build())
	c.Do(ctx, c.B().Del().Key(key).Build()) // want `lock key is deleted with DEL without checking`
}

// Negative: DELEX IFEQ and a compare-and-delete Lua script.
func rueidisGood(ctx context.Context, c rueidis.Client, key, token string) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build())
	c.Do(ctx, c.B().Delex().Key(key).Ifeq(token).Build())
	rueidis.NewLuaScript(releaseSrc).Exec(ctx, c, []string{key}, []string{token})
}
