// Package typeerr does not type-check. Analyzers must run on it without
// panicking (they set RunDespiteErrors) and report nothing they cannot
// be sure of.
package typeerr

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var rdb = redis.NewClient(&redis.Options{})

func wrongArity(ctx context.Context, key string) {
	rdb.SetNX(ctx, key)
	rdb.SetNX()
	rdb.Del()
	rdb.Expire(ctx)
	rdb.SetArgs(ctx, key, "v", undefinedArgs)
	rdb.Eval(ctx, undefinedScript, []string{key})
	redis.NewScript().Run(ctx, rdb, nil)
	rdb.Do(ctx)
}

func undefinedNames(ctx context.Context) {
	rdb.SetNX(ctx, missingKey, missingToken, 0)
	rdb.Expire(ctx, missingKey, time.Second)
	rdb.Del(ctx, missingKey)
	missingClient.Del(ctx, "k")
	var l *MissingLock
	l.rdb.Del(ctx, l.key)
}

func redigoBroken(c redigo.Conn, key string) {
	c.Do()
	c.Do(undefinedCommand, key)
	c.Do("SET", key)
	c.Do("SET")
	c.Do("EVAL")
	c.Do("EVAL", "return 1", "notanumber")
	redigo.NewScript(1).Do(c, key)
	redigo.NewScript(undefinedCount, "x").Do(c)
}

func rueidisBroken(ctx context.Context, c rueidis.Client, key string) {
	c.Do(ctx, c.B().Set().Key().Build())
	c.Do(ctx, c.B().Del().Build())
	c.Do(ctx, undefinedB().Set().Key(key).Build())
	rueidis.NewLuaScript().Exec(ctx, c, nil, nil)
}

func (x *Undefined) Method(ctx context.Context, key string) {
	x.rdb.SetNX(ctx, key, "1", 0)
	x.rdb.Del(ctx, key)
}

type Iface interface {
	Lock(ctx context.Context, key string) bool
	Missing
}

// Helpers that call each other: summaries must reach a fixed point.
func recursive(ctx context.Context, key string) {
	recursive(ctx, key)
	rdb.SetNX(ctx, key, undefinedToken, time.Second)
	mutual(ctx, key)
}

func mutual(ctx context.Context, key string) {
	recursive(ctx, key)
	rdb.Get(ctx, key)
}
