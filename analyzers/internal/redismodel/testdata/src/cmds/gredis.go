package cmds

import (
	"context"
	"time"

	gv1 "github.com/gogf/gf/database/gredis"
	"github.com/gogf/gf/frame/g"
	"github.com/gogf/gf/v2/database/gredis"
)

func goFrame(ctx context.Context, r *gredis.Redis, k, v string, n int64) {
	r.SetNX(ctx, k, v)                                                    // want `^gredis SET key=k value=v NX noexpiry$`
	r.SetEX(ctx, k, v, 30)                                                // want `^gredis SET key=k value=v ttl=30/s$`
	r.Set(ctx, k, v)                                                      // want `^gredis SET key=k value=v noexpiry$`
	r.Set(ctx, k, v, gredis.SetOption{NX: true})                          // want `^gredis SET key=k value=v partial$`
	r.Expire(ctx, k, n)                                                   // want `^gredis EXPIRE key=k ttl=n/s$`
	r.PExpire(ctx, k, 1500)                                               // want `^gredis PEXPIRE key=k ttl=1500/ms$`
	r.Del(ctx, k)                                                         // want `^gredis DEL key=k$`
	r.Get(ctx, k)                                                         // want `^gredis GET key=k$`
	r.Incr(ctx, k)                                                        // want `^gredis INCR key=k$`
	r.Do(ctx, "SET", k, v, "NX", "EX", 10)                                // want `^gredis SET key=k value=v NX ttl=10/s$`
	r.Do(ctx, "SET", k, v, "NX", "PX", time.Second)                       // want `^gredis SET key=k value=v NX ttl=time.Second/ms$`
	r.Eval(ctx, `return redis.call('DEL', KEYS[1])`, 1, []string{k}, nil) // want `^gredis EVAL key=k script\(del=true,checked=false\)$`
	gredis.Instance()
}

func goFrameV1(r *gv1.Redis, k, v string) {
	g.Redis().Do("SET", k, 1, "ex", 3600, "nx")          // want `^gredis SET key=k value=1 NX ttl=3600/s$`
	g.Redis().Do("DEL", k)                               // want `^gredis DEL key=k$`
	r.DoVar("GET", k)                                    // want `^gredis GET key=k$`
	r.DoWithTimeout(time.Second, "SET", k, v, "PX", 500) // want `^gredis SET key=k value=v ttl=500/ms$`
	r.Conn().Do("EXPIRE", k, 30)                         // want `^gredis EXPIRE key=k ttl=30/s$`
	r.Ctx(context.Background()).Do("SET", k, v, "NX")    // want `^gredis SET key=k value=v NX noexpiry$`
	r.Close()                                            // not a command
}
