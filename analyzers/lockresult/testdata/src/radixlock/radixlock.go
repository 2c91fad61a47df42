package radixlock

import (
	"context"

	radix "github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
)

func work() {}

// A nil receiver drops the reply: a refused SET NX answers nil with a nil
// error, so the caller cannot tell.
func tryLock(p *radix.Pool, id, token string) error {
	return p.Do(radix.Cmd(nil, "SET", "lock:"+id, token, "NX", "EX", "10")) // want `only the error of SET NX of "lock:" \+ id is checked: a lock held by someone else comes back as a nil reply with a nil error, so this code goes on without the lock; read the reply \(radix.Cmd\(&reply, ...\)\) and check it`
}

func fireAndForget(p *radix.Pool, id, token string) {
	p.Do(radix.Cmd(nil, "SET", "lock:"+id, token, "NX", "EX", "10")) // want `the result of SET NX of "lock:" \+ id is discarded`
	work()
	p.Do(radix.Cmd(nil, "DEL", "lock:"+id))
}

// The reply goes into a variable nothing reads.
func unread(ctx context.Context, c radix4.Client, id, token string) error {
	var n int
	if err := c.Do(ctx, radix4.Cmd(&n, "SETNX", "lock:"+id, token)); err != nil { // want `only the error of SETNX of "lock:" \+ id is checked: a lock held by someone else comes back as 0 with a nil error, so this code goes on without the lock; read the reply \(radix.Cmd\(&n, ...\)\) and check it \(if n != 1`
		return err
	}
	work()
	return c.Do(ctx, radix4.Cmd(nil, "DEL", "lock:"+id))
}

// Near misses: the reply is read and compared.
func checked(p *radix.Pool, id, token string) (bool, error) {
	var res string
	if err := p.Do(radix.Cmd(&res, "SET", "lock:"+id, token, "NX", "EX", "10")); err != nil {
		return false, err
	}
	return res == "OK", nil
}

func checkedV4(ctx context.Context, c radix4.Client, id, token string) error {
	var n int
	if err := c.Do(ctx, radix4.Cmd(&n, "SETNX", "lock:"+id, token)); err != nil || n != 1 {
		return err
	}
	work()
	return c.Do(ctx, radix4.Cmd(nil, "DEL", "lock:"+id))
}

// A set-once value whose outcome decides nothing is no lock.
func seed(p *radix.Pool, id string) error {
	return p.Do(radix.Cmd(nil, "SET", "seen:"+id, "1", "NX", "EX", "60"))
}
