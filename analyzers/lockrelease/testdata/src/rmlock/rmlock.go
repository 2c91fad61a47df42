// Package rmlock is a redigo store whose lock API is Lock and RmLock
// ("rm" for remove), beside cache operations on keys its callers pass.
package rmlock

import (
	"github.com/gomodule/redigo/redis"
)

type Redis struct{ pool *redis.Pool }

// Do forwards a command to a pooled connection.
func (r *Redis) Do(command string, args ...interface{}) (interface{}, error) {
	c := r.pool.Get()
	defer c.Close()
	return c.Do(command, args...)
}

func (r *Redis) Lock(key string, value string, expire int64) bool {
	if result, err := r.Do("SET", key, value, "EX", expire, "NX"); err != nil || result == nil {
		return false
	}
	return true
}

// RmLock compares the value when it is given one, and deletes outright
// when it is not.
func (r *Redis) RmLock(key string, value string) (bool, error) {
	if value == "" {
		if _, err := r.Do("DEL", key); err != nil { // want `lock key is deleted with DEL without checking that this holder still owns it`
			return false, err
		}
		return true, nil
	}
	n, err := redis.Int64(r.Do("EVAL", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`, 1, key, value))
	return n == 1, err
}

// Near miss: RmCache removes a cache entry; nothing in its name speaks of
// the lock.
func (r *Redis) RmCache(key string) error {
	_, err := r.Do("DEL", key)
	return err
}
