package cmds

import (
	"context"
	"time"

	radix "github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
)

var radixRelease = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

var radix4Release = radix4.NewEvalScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func radixV3(p *radix.Pool, k, v string, ttl time.Duration) {
	var res string
	p.Do(radix.Cmd(&res, "SET", k, v, "NX", "EX", "10")) // want `^radix SET key=k value=v NX ttl="10"/s$`
	p.Do(radix.Cmd(nil, "SETNX", k, v))                  // want `^radix SETNX key=k value=v noexpiry$`
	p.Do(radix.FlatCmd(nil, "SET", k, v, "PX", ttl))     // want `^radix SET key=k value=v ttl=ttl/ms$`
	p.Do(radix.FlatCmd(nil, "EXPIRE", k, 30))            // want `^radix EXPIRE key=k ttl=30/s$`
	p.Do(radix.Cmd(nil, "DEL", k))                       // want `^radix DEL key=k$`
	p.Do(radixRelease.Cmd(nil, k, v))                    // want `^radix EVAL key=k script\(del=true,checked=true\)$`
	p.Do(radixRelease.FlatCmd(nil, []string{k}, v))      // want `^radix EVAL key=k script\(del=true,checked=true\)$`
	p.Do(radix.Cmd(&res, "GET", k))                      // want `^radix GET key=k$`
	args := []string{k, v}
	p.Do(radix.Cmd(nil, "SET", args...)) // want `^radix SET key=k value=v noexpiry$`
}

func radixV4(ctx context.Context, c radix4.Client, k, v string) {
	var ok bool
	c.Do(ctx, radix4.Cmd(&ok, "SET", k, v, "NX", "PX", "5000")) // want `^radix SET key=k value=v NX ttl="5000"/ms$`
	c.Do(ctx, radix4.FlatCmd(nil, "DEL", k))                    // want `^radix DEL key=k$`
	c.Do(ctx, radix4Release.Cmd(nil, []string{k}, v))           // want `^radix EVAL key=k script\(del=true,checked=true\)$`
}

func radixPipelines(ctx context.Context, p *radix.Pool, c radix4.Client, k, v string) {
	p.Do(radix.Pipeline(
		radix.Cmd(nil, "SETNX", k, v),     // want `^radix SETNX key=k value=v noexpiry pipeline$`
		radix.Cmd(nil, "EXPIRE", k, "10"), // want `^radix EXPIRE key=k ttl="10"/s pipeline$`
	))
	pipe := radix4.NewPipeline()
	pipe.Append(radix4.Cmd(nil, "DEL", k)) // want `^radix DEL key=k pipeline$`
	c.Do(ctx, pipe)
	p.Do(radix.WithConn(k, func(conn radix.Conn) error {
		conn.Do(radix.Cmd(nil, "MULTI"))       // want `^radix MULTI$`
		conn.Do(radix.Cmd(nil, "DEL", k))      // want `^radix DEL key=k multi$`
		return conn.Do(radix.Cmd(nil, "EXEC")) // want `^radix EXEC$`
	}))
}
