package radixlock

import (
	"time"

	radix "github.com/mediocregopher/radix/v3"
)

var release = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func lock(p *radix.Pool, id string) (bool, error) {
	var res string
	err := p.Do(radix.Cmd(&res, "SET", "job:lock:"+id, time.Now().String(), "NX", "EX", "10")) // want `lock "job:lock:" \+ id stores a timestamp as its value`
	return res == "OK", err
}

func unlock(p *radix.Pool, id, token string) error {
	return p.Do(release.Cmd(nil, "job:lock:"+id, token))
}

// Near miss: the caller's random token.
func lockToken(p *radix.Pool, id, token string) (bool, error) {
	var res string
	err := p.Do(radix.Cmd(&res, "SET", "order:lock:"+id, token, "NX", "EX", "10"))
	return res == "OK", err
}

func unlockToken(p *radix.Pool, id, token string) error {
	return p.Do(release.Cmd(nil, "order:lock:"+id, token))
}
