package renew

import (
	"context"
	_ "embed"
	"time"

	"github.com/redis/rueidis"
)

func rueidisWork(ctx context.Context, c rueidis.Client, key string, items []string) {
	token := newToken()
	if c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(ttl).Build()).Error() != nil {
		return
	}
	for range items {
		c.Do(ctx, c.B().Pexpire().Key(key).Milliseconds(10000).Build())           // want `lock key is renewed with PEXPIRE without checking`
		c.Do(ctx, c.B().Set().Key(key).Value(token).Xx().Px(time.Second).Build()) // want `lock key is renewed with SET XX, which overwrites the key whoever holds it`
	}
}

func rueidisExpire(ctx context.Context, c rueidis.Client, job string) {
	token := newToken()
	if c.Do(ctx, c.B().Set().Key("job:"+job).Value(token).Nx().Px(ttl).Build()).Error() != nil {
		panic("lock busy")
	}
	go c.Do(ctx, c.B().Expire().Key("job:"+job).Seconds(10).Build()) // want `lock "job:" \+ job is renewed with EXPIRE without checking`
}

//go:embed extend.lua
var extendLua string

var extendScript = rueidis.NewLuaScript(extendLua)

// A script from a .lua file that extends without comparing.
func rueidisScript(ctx context.Context, c rueidis.Client, key string) {
	token := newToken()
	if c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(ttl).Build()).Error() != nil {
		panic("lock busy")
	}
	go extendScript.Exec(ctx, c, []string{key}, []string{"10000"}) // want `the Lua script renews lock key without comparing`
}

const checkedExtend = `local v = redis.call("GET", KEYS[1])
if v ~= ARGV[1] then return 0 end
return redis.call("PEXPIRE", KEYS[1], ARGV[2])`

var checkedScript = rueidis.NewLuaScript(checkedExtend)

// Negative: a compare-and-expire script.
func rueidisChecked(ctx context.Context, c rueidis.Client, key string) {
	token := newToken()
	if c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(ttl).Build()).Error() != nil {
		panic("lock busy")
	}
	go checkedScript.Exec(ctx, c, []string{key}, []string{token, "10000"})
}
