// Package luaexec runs any script its caller names, as lock libraries'
// internal packages do.
package luaexec

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// WLock takes the writer field of a read/write lock when no writer holds it.
var WLock = `
local w = redis.call("HGET", KEYS[1], "w")
if w ~= false then
	return "conflict"
end
redis.call("HSET", KEYS[1], "w", ARGV[1])
redis.call("EXPIRE", KEYS[1], ARGV[2])
return "ok"`

// WUnlock drops the writer field whoever holds it.
var WUnlock = `
redis.call("HDEL", KEYS[1], "w")
return "ok"`

// WUnlockOwned drops the writer field only for its holder.
var WUnlockOwned = `
if redis.call("HGET", KEYS[1], "w") == ARGV[1] then
	redis.call("HDEL", KEYS[1], "w")
end
return "ok"`

func Exec(ctx context.Context, rdb *redis.Client, key, script string, args ...any) error {
	lua := redis.NewScript(script)
	return lua.Run(ctx, rdb, []string{key}, args...).Err()
}
