package radixlock

import (
	"github.com/mediocregopher/radix.v2/pool"
	"github.com/mediocregopher/radix.v2/redis"
)

// radix.v2: SETNX, then EXPIRE in a second round trip.
func lockPairV2(c *redis.Client, id string) bool {
	n, err := c.Cmd("SETNX", "lock2:"+id, "1").Int() // want `lock "lock2:" \+ id is acquired with SETNX and given its TTL by a separate EXPIRE`
	if err != nil || n != 1 {
		return false
	}
	c.Cmd("EXPIRE", "lock2:"+id, 10)
	return true
}

// Near miss: SET NX EX in one command.
func lockAtomicV2(p *pool.Pool, id, token string) bool {
	s, err := p.Cmd("SET", "lock2:atomic:"+id, token, "NX", "EX", 10).Str()
	return err == nil && s == "OK"
}
