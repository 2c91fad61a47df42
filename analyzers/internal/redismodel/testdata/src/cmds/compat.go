package cmds

import (
	"context"
	"time"

	"github.com/redis/rueidis/rueidiscompat"
)

var compatRelease = rueidiscompat.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func compat(ctx context.Context, c rueidiscompat.Cmdable, k, v string) {
	c.SetNX(ctx, k, v, 10*time.Second)        // want `^go-redis SET key=k value=v NX ttl=10 \* time.Second/duration$`
	c.Del(ctx, k)                             // want `^go-redis DEL key=k$`
	c.Expire(ctx, k, time.Minute)             // want `^go-redis EXPIRE key=k ttl=time.Minute/duration$`
	compatRelease.Run(ctx, c, []string{k}, v) // want `^go-redis EVAL key=k script\(del=true,checked=true\)$`
}
