package gozero

import (
	"context"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

func work() {}

var release = zredis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func plainDel(ctx context.Context, r *zredis.Redis, id, token string) error {
	ok, err := r.SetnxExCtx(ctx, "lock:"+id, token, 10)
	if err != nil || !ok {
		return err
	}
	defer r.DelCtx(ctx, "lock:"+id) // want `lock "lock:" \+ id is deleted with DEL without checking that this holder still owns it`
	work()
	return nil
}

func compareAndDelete(ctx context.Context, r *zredis.Redis, id, token string) error {
	ok, err := r.SetnxExCtx(ctx, "lock2:"+id, token, 10)
	if err != nil || !ok {
		return err
	}
	defer r.ScriptRunCtx(ctx, release, []string{"lock2:" + id}, token)
	work()
	return nil
}
