package radixlock

import (
	radix "github.com/mediocregopher/radix/v3"
)

// SETNX, then EXPIRE in a second round trip.
func lockPair(p *radix.Pool, id string) (bool, error) {
	var n int
	if err := p.Do(radix.Cmd(&n, "SETNX", "lock:"+id, "1")); err != nil || n != 1 { // want `lock "lock:" \+ id is acquired with SETNX and given its TTL by a separate EXPIRE`
		return false, err
	}
	if err := p.Do(radix.FlatCmd(nil, "EXPIRE", "lock:"+id, 10)); err != nil {
		return false, err
	}
	return true, nil
}

// Near miss: the TTL comes with the SET NX.
func lockAtomic(p *radix.Pool, id, token string) (bool, error) {
	var res string
	err := p.Do(radix.Cmd(&res, "SET", "lock:atomic:"+id, token, "NX", "EX", "10"))
	return res == "OK", err
}
