package cmds

import (
	"context"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

var zscript = zredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func gozero(ctx context.Context, r *zredis.Redis, k, v string, n int) {
	r.SetnxEx(k, v, n)                                               // want `^go-zero SET key=k value=v NX ttl=n/s$`
	r.SetnxExCtx(ctx, k, v, 30)                                      // want `^go-zero SET key=k value=v NX ttl=30/s$`
	r.Setnx(k, v)                                                    // want `^go-zero SET key=k value=v NX noexpiry$`
	r.SetexCtx(ctx, k, v, n)                                         // want `^go-zero SET key=k value=v ttl=n/s$`
	r.ExpireCtx(ctx, k, n)                                           // want `^go-zero EXPIRE key=k ttl=n/s$`
	r.DelCtx(ctx, k, "other")                                        // want `^go-zero DEL key=k key="other"$`
	r.HsetCtx(ctx, k, "f", v)                                        // want `^go-zero HSET key=k$`
	r.GetCtx(ctx, k)                                                 // want `^go-zero GET key=k$`
	r.EvalCtx(ctx, `return redis.call("del", KEYS[1])`, []string{k}) // want `^go-zero EVAL key=k script\(del=true,checked=false\)$`
	r.ScriptRunCtx(ctx, zscript, []string{k}, v)                     // want `^go-zero EVAL key=k script\(del=true,checked=true\)$`
	zredis.NewRedisLock(r, k).AcquireCtx(ctx)                        // a lock library call, no command
}
