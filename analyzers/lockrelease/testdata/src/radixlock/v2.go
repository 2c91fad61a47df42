package radixlock

import (
	"github.com/mediocregopher/radix.v2/pool"
	"github.com/mediocregopher/radix.v2/util"
)

func lockV2(p *pool.Pool, id, token string) bool {
	s, err := p.Cmd("SET", "route:lock:"+id, token, "NX", "EX", 60).Str()
	return err == nil && s == "OK"
}

func unlockV2(p *pool.Pool, id string) {
	p.Cmd("DEL", "route:lock:"+id) // want `lock "route:lock:" \+ id is deleted with DEL without checking that this holder still owns it`
}

// Near miss: util.LuaEval runs a compare-and-delete.
func lockV2Safe(p *pool.Pool, id, token string) bool {
	s, err := p.Cmd("SET", "hash:lock:"+id, token, "NX", "EX", 60).Str()
	return err == nil && s == "OK"
}

func unlockV2Safe(p *pool.Pool, id, token string) {
	util.LuaEval(p, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, 1, "hash:lock:"+id, token)
}
