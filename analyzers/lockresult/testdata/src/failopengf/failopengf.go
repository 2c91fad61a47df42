// Package failopengf takes locks with GoFrame's gredis and answers
// "acquired" when Redis fails.
package failopengf

import (
	"context"
	"log"

	"github.com/gogf/gf/v2/database/gredis"
)

type Cron struct{ r *gredis.Redis }

// A deliberate fail-open (better twice than never) is still reported:
// every instance runs the job at once while Redis is away.
func (c *Cron) acquireCronLock(ctx context.Context, job, token string) bool {
	v, err := c.r.Do(ctx, "SET", "cron:lock:"+job, token, "NX", "EX", 600) // want `when Do\(SET NX\) fails \(Redis unreachable, a timeout\), acquireCronLock returns true`
	if err != nil {
		log.Printf("redis down, running %s without the lock", job)
		return true
	}
	return !v.IsNil()
}

func (c *Cron) tryLock(ctx context.Context, key, token string) (bool, error) {
	ok, err := c.r.SetNX(ctx, key+":lock", token) // want `when SetNX fails \(Redis unreachable, a timeout\), tryLock returns true`
	if err != nil {
		return true, nil
	}
	if ok {
		_, _ = c.r.Expire(ctx, key+":lock", 30)
	}
	return ok, nil
}

// Near misses: the failure is returned as one.
func (c *Cron) acquireStrict(ctx context.Context, job, token string) bool {
	v, err := c.r.Do(ctx, "SET", "cron:lock:"+job, token, "NX", "EX", 600)
	if err != nil {
		return false
	}
	return !v.IsNil()
}

func (c *Cron) acquireErr(ctx context.Context, job, token string) (bool, error) {
	v, err := c.r.Do(ctx, "SET", "cron:lock:"+job, token, "NX", "EX", 600)
	if err != nil {
		return false, err
	}
	return !v.IsNil(), nil
}

// Near miss: a replay guard, not a lock; letting a request through while
// Redis is away is a choice about nonces, not a critical section.
func (c *Cron) freshNonce(ctx context.Context, app, nonce string) bool {
	v, err := c.r.Do(ctx, "SET", "nonce:"+app+":"+nonce, "1", "NX", "EX", 600)
	if err != nil {
		return true
	}
	return !v.IsNil()
}
