package discard

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var rdb = redis.NewClient(&redis.Options{})

func bare(ctx context.Context, k string) {
	rdb.SetNX(ctx, k, "v", time.Second)                 // want `discarded`
	defer rdb.SetNX(ctx, k, "v", time.Second)           // want `discarded`
	_ = rdb.SetNX(ctx, k, "v", time.Second).Val()       // want `discarded`
	_, _ = rdb.SetNX(ctx, k, "v", time.Second).Result() // want `discarded`
}

func used(ctx context.Context, k string) bool {
	if !rdb.SetNX(ctx, k, "v", time.Second).Val() { // want `used`
		return false
	}
	ok, err := rdb.SetNX(ctx, k, "v", time.Second).Result() // want `used`
	_ = err
	if err := rdb.SetArgs(ctx, k, "v", redis.SetArgs{Mode: "NX", TTL: time.Second}).Err(); err != nil { // want `used`
		return false
	}
	return ok && rdb.SetNX(ctx, k, "v", time.Second).Val() // want `used`
}

func redigoShapes(c redigo.Conn, k string) {
	c.Do("SET", k, "v", "NX", "PX", 100)                        // want `discarded`
	s, _ := redigo.String(c.Do("SET", k, "v", "NX", "PX", 100)) // want `used`
	_ = s
}

func rueidisShapes(ctx context.Context, c rueidis.Client, k string) {
	c.Do(ctx, c.B().Set().Key(k).Value("v").Nx().Px(time.Second).Build())                     // want `discarded`
	if c.Do(ctx, c.B().Set().Key(k).Value("v").Nx().Px(time.Second).Build()).Error() != nil { // want `used`
		return
	}
}

// Nobody reads what the queued SETNX answered: neither its cmd nor the
// results TxPipelined returns.
func pipelined(ctx context.Context, k string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, k, "v", time.Second) // want `discarded`
		return nil
	})
}

func pipelinedRead(ctx context.Context, k string) bool {
	cmds, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, k, "v", time.Second) // want `used`
		return nil
	})
	return err == nil && cmds[0].(*redis.BoolCmd).Val()
}

func pipelinedKept(ctx context.Context, k string) bool {
	var won *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		won = p.SetNX(ctx, k, "v", time.Second) // want `used`
		return nil
	})
	return err == nil && won.Val()
}
