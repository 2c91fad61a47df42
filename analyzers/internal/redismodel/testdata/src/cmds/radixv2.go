package cmds

import (
	"github.com/mediocregopher/radix.v2/pool"
	"github.com/mediocregopher/radix.v2/redis"
	"github.com/mediocregopher/radix.v2/util"
)

func radixV2(p *pool.Pool, c *redis.Client, k, v string, n int) {
	p.Cmd("SET", k, v, "NX", "EX", n)                                                                                        // want `^radix.v2 SET key=k value=v NX ttl=n/s$`
	c.Cmd("setnx", k, v)                                                                                                     // want `^radix.v2 SETNX key=k value=v noexpiry$`
	c.Cmd("DEL", k)                                                                                                          // want `^radix.v2 DEL key=k$`
	c.PipeAppend("EXPIRE", k, n)                                                                                             // want `^radix.v2 EXPIRE key=k ttl=n/s pipeline$`
	util.LuaEval(p, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, 1, k, v) // want `^radix.v2 EVAL key=k script\(del=true,checked=true\)$`
	c.PipeResp()
}
