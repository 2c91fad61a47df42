package value

import (
	"context"
	_ "embed"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

func rueidisLock(ctx context.Context, c rueidis.Client, key string) {
	if c.Do(ctx, c.B().Set().Key(key).Value("1").Nx().Px(ttl).Build()).Error() != nil { // want `lock key stores the constant "1" as its value`
		panic("lock busy")
	}
	c.Do(ctx, c.B().Del().Key(key).Build())
}

func rueidisTime(ctx context.Context, c rueidis.Client, key string) {
	v := strconv.FormatInt(time.Now().UnixMilli(), 10)
	if c.Do(ctx, c.B().Set().Key(key).Value(v).Nx().Px(ttl).Build()).Error() != nil { // want `lock key stores a timestamp as its value`
		panic("lock busy")
	}
	c.Do(ctx, c.B().Del().Key(key).Build())
}

//go:embed acquire.lua
var acquireLua string

var acquireScript = rueidis.NewLuaScript(acquireLua)

const releaseSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

var releaseScript = rueidis.NewLuaScript(releaseSrc)

// A script's SET NX stores ARGV[1].
func scriptLock(ctx context.Context, c rueidis.Client, key string) {
	if acquireScript.Exec(ctx, c, []string{key}, []string{"1", "10000"}).Error() != nil { // want `lock key stores the constant "1" as its value`
		panic("lock busy")
	}
	releaseScript.Exec(ctx, c, []string{key}, []string{"1"})
}

const acquireTTLFirst = `return redis.call("SET", KEYS[1], ARGV[2], "NX", "PX", ARGV[1])`

var acquireTTLFirstScript = rueidis.NewLuaScript(acquireTTLFirst)

// Negative: ARGV[1] is the TTL here, not the value; the value is unique.
func scriptTTLFirst(ctx context.Context, c rueidis.Client, key, token string) {
	acquireTTLFirstScript.Exec(ctx, c, []string{key}, []string{"10000", token})
	releaseScript.Exec(ctx, c, []string{key}, []string{token})
}
