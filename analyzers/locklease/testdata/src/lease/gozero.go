package lease

import (
	"context"
	"time"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

var zstore = zredis.New("localhost:6379")

// go-zero holds the key SetExpire seconds plus 500 ms, and nothing renews it.
func zeroJob(ctx context.Context) error {
	lock := zredis.NewRedisLock(zstore, "rank")
	lock.SetExpire(2)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(ctx)
	time.Sleep(3 * time.Second) // want `time.Sleep\(3s\) can outlive lock "rank" \(go-zero RedisLock.AcquireCtx\): the lock's TTL is 2.5s and nothing renews it`
	return nil
}

// Without SetExpire the key lives 500 ms.
func zeroDefault(ctx context.Context) error {
	lock := zredis.NewRedisLock(zstore, "short")
	ok, err := lock.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(ctx)
	time.Sleep(time.Second) // want `time.Sleep\(1s\) can outlive lock "short" \(go-zero RedisLock.AcquireCtx\): the lock's TTL is 500ms`
	return nil
}

// The wait fits in the lease.
func zeroFits(ctx context.Context) error {
	lock := zredis.NewRedisLock(zstore, "fits")
	lock.SetExpire(10)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(ctx)
	time.Sleep(3 * time.Second)
	return nil
}

// 2 s plus the 500 ms tolerance: a 2.2 s wait still fits.
func zeroTolerance(ctx context.Context) error {
	lock := zredis.NewRedisLock(zstore, "tight")
	lock.SetExpire(2)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(ctx)
	time.Sleep(2200 * time.Millisecond)
	return nil
}
