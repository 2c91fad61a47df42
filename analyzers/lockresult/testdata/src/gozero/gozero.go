package gozero

import (
	"context"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

func work() {}

// SetnxEx answers a held lock with false and a nil error.
func errOnly(ctx context.Context, r *zredis.Redis, id, token string) error {
	if _, err := r.SetnxExCtx(ctx, "lock:"+id, token, 10); err != nil { // want `only the error of SetnxExCtx of "lock:" \+ id is checked: a lock held by someone else comes back as false with a nil error`
		return err
	}
	work()
	return nil
}

func both(ctx context.Context, r *zredis.Redis, id, token string) error {
	ok, err := r.SetnxExCtx(ctx, "lock:"+id, token, 10)
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	work()
	return nil
}
