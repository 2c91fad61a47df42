package radixlock

import (
	"context"

	radix "github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
)

var release = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

var release4 = radix4.NewEvalScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func lock(p *radix.Pool, id, token string) (bool, error) {
	var res string
	err := p.Do(radix.Cmd(&res, "SET", "job:lock:"+id, token, "NX", "EX", "10"))
	return res == "OK", err
}

func unlock(p *radix.Pool, id string) error {
	return p.Do(radix.Cmd(nil, "DEL", "job:lock:"+id)) // want `lock "job:lock:" \+ id is deleted with DEL without checking that this holder still owns it`
}

// Near misses: a compare-and-delete script, on v3 and on v4.
func lockSafe(p *radix.Pool, id, token string) (bool, error) {
	var res string
	err := p.Do(radix.Cmd(&res, "SET", "order:lock:"+id, token, "NX", "EX", "10"))
	return res == "OK", err
}

func unlockSafe(p *radix.Pool, id, token string) error {
	return p.Do(release.Cmd(nil, "order:lock:"+id, token))
}

func lockSafe4(ctx context.Context, c radix4.Client, id, token string) (bool, error) {
	var res string
	err := c.Do(ctx, radix4.Cmd(&res, "SET", "pay:lock:"+id, token, "NX", "EX", "10"))
	return res == "OK", err
}

func unlockSafe4(ctx context.Context, c radix4.Client, id, token string) error {
	return c.Do(ctx, release4.Cmd(nil, []string{"pay:lock:" + id}, token))
}
