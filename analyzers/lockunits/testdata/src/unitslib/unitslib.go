// Package unitslib takes a lock with a script whose TTL is a count of
// seconds, passed in by its callers.
package unitslib

import "github.com/gomodule/redigo/redis"

const lockScript = `
local v = redis.call("GET", KEYS[1])
if v == false or v == ARGV[1] then
	return redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2]) and 1
end
return 0`

// WriteLock takes name for ttl seconds.
func WriteLock(conn redis.Conn, name, secret string, ttl int64) bool {
	n, err := redis.Int(redis.NewScript(1, lockScript).Do(conn, name, secret, ttl))
	return err == nil && n == 1
}
