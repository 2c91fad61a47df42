package radixlock

import (
	"github.com/mediocregopher/radix.v2/pool"
	"github.com/mediocregopher/radix.v2/redis"
)

// radix.v2: a held lock is a nil reply whose Err is nil.
func v2ErrOnly(p *pool.Pool, id, token string) bool {
	resp := p.Cmd("SET", "route:lock:"+id, token, "NX", "EX", 60) // want `only the error of SET NX of "route:lock:" \+ id is checked: a lock held by someone else comes back as a nil reply with a nil error, so this code goes on without the lock; check the reply \(resp.Str\(\) fails on the nil reply of a held lock\)`
	if resp.Err != nil {
		return false
	}
	return true
}

func v2ErrInline(c *redis.Client, id string) error {
	if err := c.Cmd("SETNX", "route2:lock:"+id, "1").Err; err != nil { // want `only the error of SETNX of "route2:lock:" \+ id is checked: a lock held by someone else comes back as 0 with a nil error`
		return err
	}
	work()
	c.Cmd("DEL", "route2:lock:"+id)
	return nil
}

func v2Discarded(p *pool.Pool, id, token string) {
	p.Cmd("SET", "route3:lock:"+id, token, "NX", "EX", 60) // want `the result of SET NX of "route3:lock:" \+ id is discarded`
	work()
	p.Cmd("DEL", "route3:lock:"+id)
}

// Near misses: the reply is read.
func v2Str(p *pool.Pool, id, token string) bool {
	s, err := p.Cmd("SET", "hash:lock:"+id, token, "NX", "EX", 60).Str()
	return err == nil && s == "OK"
}

func v2IsType(p *pool.Pool, id, token string) bool {
	resp := p.Cmd("SET", "hash2:lock:"+id, token, "NX", "EX", 60)
	if resp.Err != nil || resp.IsType(redis.Nil) {
		return false
	}
	return true
}

// A value seeded once is no lock: not judged.
func v2Seed(p *pool.Pool, id string) error {
	return p.Cmd("SET", "seen:"+id, "1", "NX", "EX", 60).Err
}
