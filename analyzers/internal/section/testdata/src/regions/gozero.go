package regions

import (
	"context"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

// go-zero's RedisLock is a library lock, and its AcquireCtx sends a SET
// NX script of its own: one section, the library's, not two.
func zeroSection(ctx context.Context, store *zredis.Redis) {
	lock := zredis.NewRedisLock(store, "job:zero")
	lock.SetExpire(10)
	if ok, err := lock.AcquireCtx(ctx); err != nil || !ok {
		return
	}
	held() // want `held in lock "job:zero" \(go-zero RedisLock.AcquireCtx\)`
	lock.ReleaseCtx(ctx)
}
