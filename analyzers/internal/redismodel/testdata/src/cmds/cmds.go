package cmds

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	redisv6 "github.com/go-redis/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

func goredis(ctx context.Context, rdb redis.UniversalClient, k, v string, d time.Duration, xargs *redis.XAddArgs) {
	rdb.SetNX(ctx, k, v, 0)                                                // want `^go-redis SET key=k value=v NX ttl=0/duration noexpiry$`
	rdb.SetNX(ctx, k, v, d)                                                // want `^go-redis SET key=k value=v NX ttl=d/duration$`
	rdb.SetNX(ctx, k, v, redis.KeepTTL)                                    // want `^go-redis SET key=k value=v NX KEEPTTL noexpiry$`
	rdb.Set(ctx, k, v, time.Minute)                                        // want `^go-redis SET key=k value=v ttl=time.Minute/duration$`
	rdb.SetArgs(ctx, k, v, redis.SetArgs{Mode: "nx", TTL: d})              // want `^go-redis SET key=k value=v NX ttl=d/duration$`
	rdb.SetArgs(ctx, k, v, redis.SetArgs{Mode: "NX"})                      // want `^go-redis SET key=k value=v NX noexpiry$`
	rdb.SetArgs(ctx, k, v, redis.SetArgs{Mode: "NX", ExpireAt: time.Now()}) // want `^go-redis SET key=k value=v NX ttl=time.Now\(\)/time$`
	args := redis.SetArgs{Mode: "NX"}
	rdb.SetArgs(ctx, k, v, args)                                            // want `^go-redis SET key=k value=v partial$`
	rdb.Expire(ctx, k, d)                                                   // want `^go-redis EXPIRE key=k ttl=d/duration$`
	rdb.PExpire(ctx, k, d)                                                  // want `^go-redis PEXPIRE key=k ttl=d/duration$`
	rdb.ExpireAt(ctx, k, time.Now())                                        // want `^go-redis EXPIREAT key=k ttl=time.Now\(\)/time$`
	rdb.XAdd(ctx, &redis.XAddArgs{Stream: k, Values: v}) // want `^go-redis XADD key=k$`
	rdb.XAdd(ctx, xargs) // want `^go-redis XADD partial$`
	rdb.XAck(ctx, k, "group", v) // want `^go-redis XACK key=k$`
	rdb.Del(ctx, k, "other")                                                // want `^go-redis DEL key=k key="other"$`
	rdb.DelExArgs(ctx, k, redis.DelExArgs{Mode: "IFEQ", MatchValue: v})     // want `^go-redis DELEX key=k IFEQ$`
	rdb.Incr(ctx, k)                                                        // want `^go-redis INCR key=k$`
	rdb.Eval(ctx, `return redis.call("del", KEYS[1])`, []string{k}, v)      // want `^go-redis EVAL key=k script\(del=true,checked=false\)$`
	delScript := redis.NewScript(`return redis.call("del", KEYS[1])`)
	sha, _ := delScript.Load(ctx, rdb).Result()
	rdb.EvalSha(ctx, sha, []string{k}, v)                 // want `^go-redis EVALSHA key=k script\(del=true,checked=false\)$`
	rdb.EvalSha(ctx, delScript.Hash(), []string{k}, v)    // want `^go-redis EVALSHA key=k script\(del=true,checked=false\)$`
	loaded := rdb.ScriptLoad(ctx, `return redis.call("del", KEYS[1])`).Val()
	rdb.EvalSha(ctx, loaded, []string{k}, v)              // want `^go-redis EVALSHA key=k script\(del=true,checked=false\)$`
	rdb.EvalSha(ctx, v, []string{k}, v)                   // want `^go-redis EVALSHA key=k$`
	rdb.Do(ctx, "set", k, v, "px", 100, "nx")                               // want `^go-redis SET key=k value=v NX ttl=100/ms$`
	rdb.Do(ctx, "SET", k, v, "EX", d.Seconds(), "XX", "GET")                // want `^go-redis SET key=k value=v XX GET ttl=d.Seconds\(\)/s$`
	defer rdb.Del(ctx, k)                                                   // want `^go-redis DEL key=k defer$`
	go rdb.Del(ctx, k)                                                      // want `^go-redis DEL key=k go$`
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Expire(ctx, k, d) // want `^go-redis EXPIRE key=k ttl=d/duration pipeline$`
		return nil
	})
	tx := rdb.TxPipeline()
	tx.Del(ctx, k) // want `^go-redis DEL key=k multi$`
	rdb.Watch(ctx, func(tx *redis.Tx) error { // want `^go-redis WATCH key=k$`
		tx.Get(ctx, k) // want `^go-redis GET key=k watch$`
		tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, k) // want `^go-redis DEL key=k multi watch$`
			return nil
		})
		return nil
	}, k)
	rdb.Watch(ctx, func(tx *redis.Tx) error { // want `^go-redis WATCH key=k$`
		tx.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, k) // want `^go-redis DEL key=k pipeline watch$`
			return nil
		})
		return nil
	}, k)
}

func v6(c *redisv6.Client, k string) {
	c.SetNX(k, "1", 0) // want `^go-redis SET key=k value="1" NX ttl=0/duration noexpiry$`
	c.Watch(func(tx *redisv6.Tx) error { // want `^go-redis WATCH key=k$`
		tx.Pipelined(func(p redisv6.Pipeliner) error {
			p.Del(k) // want `^go-redis DEL key=k multi watch$`
			return nil
		})
		return nil
	}, k)
}

func redigoCmds(c redigo.Conn, k, v string, opts []interface{}) {
	c.Do("SET", k, v, "EX", 30, "NX")              // want `^redigo SET key=k value=v NX ttl=30/s$`
	c.Do("set", k, v, "nx")                        // want `^redigo SET key=k value=v NX noexpiry$`
	c.Do("SETNX", k, v)                            // want `^redigo SETNX key=k value=v noexpiry$`
	c.Do("PEXPIRE", k, 500)                        // want `^redigo PEXPIRE key=k ttl=500/ms$`
	c.Do("SET", append([]interface{}{k, v}, opts...)...) // want `^redigo SET partial$`
	c.Do("SET", k, v, opts[0])                     // want `^redigo SET key=k value=v partial$`
	c.Send("MULTI")                                // want `^redigo MULTI$`
	c.Send("DEL", k)                               // want `^redigo DEL key=k multi$`
	c.Do("EXEC")                                   // want `^redigo EXEC$`
	redigo.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end`).Do(c, k, v) // want `^redigo EVAL key=k script\(del=true,checked=true\)$`
	redigo.DoContext(c, context.Background(), "DEL", k) // want `^redigo DEL key=k$`
}

func rueidisCmds(ctx context.Context, c rueidis.Client, k, v string) {
	c.Do(ctx, c.B().Set().Key(k).Value(v).Nx().Px(time.Second).Build()) // want `^rueidis SET key=k value=v NX ttl=time.Second/duration$`
	c.Do(ctx, c.B().Set().Key(k).Value(v).Nx().Build())                 // want `^rueidis SET key=k value=v NX noexpiry$`
	c.Do(ctx, c.B().Pexpire().Key(k).Milliseconds(100).Build())         // want `^rueidis PEXPIRE key=k ttl=100/ms$`
	c.Do(ctx, c.B().Delex().Key(k).Ifeq(v).Build())                     // want `^rueidis DELEX key=k IFEQ$`
	c.Do(ctx, c.B().JsonSet().Key(k).Path("$").Value(v).Build()) // want `^rueidis JSON.SET key=k value=v partial$`
	rueidis.NewLuaScript(`return redis.call("DEL", KEYS[1])`).Exec(ctx, c, []string{k}, []string{v}) // want `^rueidis EVAL key=k script\(del=true,checked=false\)$`
}

// A builder kept in a variable: the command and key are where it was
// declared; reassigned, what it ends up holding is partly unknown.
func rueidisBuilderVar(ctx context.Context, c rueidis.Client, k, v string, again bool) {
	q := c.B().Set().Key(k).Value(v)
	c.Do(ctx, q.Build()) // want `^rueidis SET key=k value=v noexpiry$`
	r := c.B().Set().Key(k).Value(v)
	if again {
		r = c.B().Set().Key(v).Value(k)
	}
	c.Do(ctx, r.Build()) // want `^rueidis SET key=k value=v partial$`
}
