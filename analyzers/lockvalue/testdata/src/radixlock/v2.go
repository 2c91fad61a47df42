package radixlock

import (
	"github.com/mediocregopher/radix.v2/pool"
	"github.com/mediocregopher/radix.v2/util"
)

const releaseV2 = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

func lockV2(p *pool.Pool, id string) bool {
	s, err := p.Cmd("SET", "route:lock:"+id, "LOCKED", "NX", "EX", 60).Str() // want `lock "route:lock:" \+ id stores the constant "LOCKED"`
	return err == nil && s == "OK"
}

func unlockV2(p *pool.Pool, id string) {
	util.LuaEval(p, releaseV2, 1, "route:lock:"+id, "LOCKED")
}

// Near miss: the caller's token.
func lockV2Token(p *pool.Pool, id, token string) bool {
	s, err := p.Cmd("SET", "hash:lock:"+id, token, "NX", "EX", 60).Str()
	return err == nil && s == "OK"
}

func unlockV2Token(p *pool.Pool, id, token string) {
	util.LuaEval(p, releaseV2, 1, "hash:lock:"+id, token)
}
