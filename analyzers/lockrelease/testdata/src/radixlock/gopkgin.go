package radixlock

import (
	"time"

	redis "gopkg.in/redis.v5"
)

func oldLock(c *redis.Client, id, token string) (bool, error) {
	return c.SetNX("old:lock:"+id, token, 10*time.Second).Result()
}

func oldUnlock(c *redis.Client, id string) error {
	return c.Del("old:lock:" + id).Err() // want `lock "old:lock:" \+ id is deleted with DEL without checking that this holder still owns it`
}

// Near miss: a compare-and-delete script.
func oldLock2(c *redis.Client, id, token string) (bool, error) {
	return c.SetNX("old2:lock:"+id, token, 10*time.Second).Result()
}

func oldUnlock2(c *redis.Client, id, token string) error {
	return c.Eval(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{"old2:lock:" + id}, token).Err()
}
