package resultlib

import (
	"context"
	"log"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

var zstore = zredis.New("localhost:6379")

// go-zero's AcquireCtx answers a held lock with false and a nil error.
func zeroErrOnly(ctx context.Context, id string) error {
	lock := zredis.NewRedisLock(zstore, "order:"+id)
	lock.SetExpire(5)
	if _, err := lock.AcquireCtx(ctx); err != nil { // want `only the error of go-zero RedisLock.AcquireCtx is checked: a lock held by someone else comes back as false with a nil error`
		return err
	}
	defer lock.ReleaseCtx(ctx)
	work()
	return nil
}

// The bool logged, then the work anyway.
func zeroLogged(ctx context.Context, id string) {
	lock := zredis.NewRedisLock(zstore, "order:"+id)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil {
		return
	}
	if !ok { // want `when go-zero RedisLock.AcquireCtx fails \(!ok\), this branch falls through into the code that needs the lock: work\(...\) runs without it`
		log.Print("busy")
	}
	defer lock.ReleaseCtx(ctx)
	work()
}

// Both looked at.
func zeroChecked(ctx context.Context, id string) error {
	lock := zredis.NewRedisLock(zstore, "order:"+id)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	defer lock.ReleaseCtx(ctx)
	work()
	return nil
}
