package radixlock

import (
	"context"
	"time"

	radix "github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
)

// FlatCmd flattens a time.Duration to its nanoseconds.
func lock(p *radix.Pool, id, token string, ttl time.Duration) (bool, error) {
	var res string
	err := p.Do(radix.FlatCmd(&res, "SET", "job:lock:"+id, token, "NX", "PX", ttl)) // want `PX takes an integer number of milliseconds, but ttl is a time.Duration: radix's FlatCmd sends a time.Duration as its nanosecond count`
	return res == "OK", err
}

func lock4(ctx context.Context, c radix4.Client, id, token string) (bool, error) {
	var res string
	err := c.Do(ctx, radix4.FlatCmd(&res, "SET", "pay:lock:"+id, token, "NX", "EX", 10*time.Second)) // want `EX takes an integer number of seconds, but 10\*time.Second is a time.Duration: radix's FlatCmd sends a time.Duration as its nanosecond count: EX 10000000000 means`
	return res == "OK", err
}

// Near misses: the count in the unit the option takes.
func lockMillis(p *radix.Pool, id, token string, ttl time.Duration) (bool, error) {
	var res string
	err := p.Do(radix.FlatCmd(&res, "SET", "order:lock:"+id, token, "NX", "PX", ttl.Milliseconds()))
	return res == "OK", err
}

func lockSeconds(p *radix.Pool, id, token string) (bool, error) {
	var res string
	err := p.Do(radix.Cmd(&res, "SET", "cart:lock:"+id, token, "NX", "EX", "10"))
	return res == "OK", err
}
