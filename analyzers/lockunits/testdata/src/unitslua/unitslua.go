package unitslua

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"luascripts"
)

var rdb *redis.Client

func mixed(ctx context.Context, key, val string, ttl time.Duration) {
	rdb.Eval(ctx, luascripts.Lock, []string{key}, val, ttl.Seconds()) // want `PX \(ARGV\[2\] in the script\) takes milliseconds, but ttl.Seconds\(\) is in seconds.*the script also takes ARGV\[2\] with PX and EXPIRE`
}

func seconds(ctx context.Context, key, val string, ttl time.Duration) {
	rdb.Eval(ctx, luascripts.LockSeconds, []string{key}, val, ttl) // want `EX \(ARGV\[2\] in the script\) takes an integer number of seconds, but ttl is a time.Duration`
}

func secondsOK(ctx context.Context, key, val string, ttl time.Duration) {
	rdb.Eval(ctx, luascripts.LockSeconds, []string{key}, val, int64(ttl/time.Second))
}
