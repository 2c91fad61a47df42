package radixlock

import (
	"github.com/mediocregopher/radix.v2/pool"
	"github.com/mediocregopher/radix.v2/util"
)

func leadV2(p *pool.Pool, id string) bool {
	s, err := p.Cmd("SET", "leader:"+id, id, "NX", "EX", 30).Str()
	return err == nil && s == "OK"
}

func renewV2(p *pool.Pool, id string) {
	p.Cmd("EXPIRE", "leader:"+id, 30) // want `lock "leader:" \+ id is renewed with EXPIRE without checking that this holder still owns it`
}

// Near miss: an owner-checked extend.
func renewV2Checked(p *pool.Pool, id string) bool {
	n, err := util.LuaEval(p, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("expire", KEYS[1], ARGV[2]) end return 0`, 1, "leader:"+id, id, 30).Int()
	return err == nil && n == 1
}
