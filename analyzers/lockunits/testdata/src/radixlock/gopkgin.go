package radixlock

import (
	"time"

	redis "gopkg.in/redis.v5"
)

// gopkg.in/redis.v5 converts a Duration as go-redis v6 does: 10ns
// truncates to PX 0.
func oldLock(c *redis.Client, id, token string) (bool, error) {
	return c.SetNX("old:lock:"+id, token, 10).Result() // want `SetNX takes a time.Duration, so TTL 10 is 10 nanoseconds: go-redis v5 sends PX 0, which Redis rejects`
}

// Near miss: a Duration.
func oldLockOK(c *redis.Client, id, token string) (bool, error) {
	return c.SetNX("old2:lock:"+id, token, 10*time.Second).Result()
}
