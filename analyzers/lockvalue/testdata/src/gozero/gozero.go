package gozero

import (
	"context"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

func work() {}

func constant(ctx context.Context, r *zredis.Redis, id string) error {
	ok, err := r.SetnxExCtx(ctx, "lock:"+id, "1", 10) // want `lock "lock:" \+ id stores the constant "1" as its value`
	if err != nil || !ok {
		return err
	}
	defer r.DelCtx(ctx, "lock:"+id)
	work()
	return nil
}

func token(ctx context.Context, r *zredis.Redis, id, tok string) error {
	ok, err := r.SetnxExCtx(ctx, "lock2:"+id, tok, 10)
	if err != nil || !ok {
		return err
	}
	work()
	return nil
}
