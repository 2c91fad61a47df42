package gozero

import (
	"context"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

func work() {}

// Setnx has no TTL; the Expire comes a round trip later.
func twoSteps(ctx context.Context, r *zredis.Redis, id, token string) error {
	ok, err := r.SetnxCtx(ctx, "lock:"+id, token) // want `lock "lock:" \+ id is acquired with SET NX and given its TTL by a separate EXPIRE`
	if err != nil || !ok {
		return err
	}
	if err := r.ExpireCtx(ctx, "lock:"+id, 10); err != nil {
		return err
	}
	work()
	return nil
}

// SetnxEx sets the TTL with the key.
func oneStep(ctx context.Context, r *zredis.Redis, id, token string) error {
	ok, err := r.SetnxExCtx(ctx, "lock2:"+id, token, 10)
	if err != nil || !ok {
		return err
	}
	work()
	return nil
}
