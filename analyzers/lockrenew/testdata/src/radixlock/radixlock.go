package radixlock

import (
	radix "github.com/mediocregopher/radix/v3"
)

var extend = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`)

func lock(p *radix.Pool, id, token string) (bool, error) {
	var res string
	err := p.Do(radix.Cmd(&res, "SET", "job:lock:"+id, token, "NX", "PX", "5000"))
	return res == "OK", err
}

func renew(p *radix.Pool, id string) error {
	return p.Do(radix.FlatCmd(nil, "PEXPIRE", "job:lock:"+id, 5000)) // want `lock "job:lock:" \+ id is renewed with PEXPIRE without checking that this holder still owns it`
}

// Near miss: an owner-checked extend script.
func renewChecked(p *radix.Pool, id, token string) (bool, error) {
	var n int
	err := p.Do(extend.Cmd(&n, "job:lock:"+id, token, "5000"))
	return n == 1, err
}

// Near miss: the SETNX reply lands in n through its pointer, and a
// refusal returns before the EXPIRE.
func finalizeOnce(p *radix.Pool, id string) bool {
	var n int
	p.Do(radix.Cmd(&n, "SETNX", "finalize:lock:"+id, "1"))
	if n == 0 {
		return false
	}
	p.Do(radix.Cmd(nil, "EXPIRE", "finalize:lock:"+id, "30"))
	return true
}

// The same guard with the EXPIRE before the test: it runs either way.
func finalizeEitherWay(p *radix.Pool, id string) bool {
	var n int
	p.Do(radix.Cmd(&n, "SETNX", "finalize:lock:"+id, "1"))
	p.Do(radix.Cmd(nil, "EXPIRE", "finalize:lock:"+id, "30")) // want `EXPIRE of lock "finalize:lock:" \+ id runs whether or not the SETNX took the lock`
	return n == 1
}
