package units

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

const lockTTL = 30 * time.Second

const ttlSeconds = 10

const leaseMs = 1500

// A bare number where go-redis takes a time.Duration.
func bareExpire(ctx context.Context, key string) {
	rdb.Expire(ctx, key, 10) // want `Expire takes a time.Duration, so TTL 10 is 10 nanoseconds: go-redis v9 sends EXPIRE 1 \(it rounds any TTL under a second up to 1 s\); write 10\*time.Second \(or the unit you meant\)`
}

func bareSetNX(ctx context.Context, key, token string) (bool, error) {
	return rdb.SetNX(ctx, key, token, 30).Result() // want `SetNX takes a time.Duration, so TTL 30 is 30 nanoseconds: go-redis v9 sends PX 1 .* the key expires almost at once; write 30\*time.Second \(or the unit you meant\); or use safelock.Locker.TryAcquire`
}

func bareSetArgs(ctx context.Context, key, token string) error {
	return rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: 5000}).Err() // want `SetArgs.TTL takes a time.Duration, so TTL 5000 is 5000 nanoseconds: go-redis v9 sends PX 1`
}

// The constant's name says seconds: the fix multiplies by time.Second.
func namedSeconds(ctx context.Context, key string) {
	rdb.Expire(ctx, key, ttlSeconds) // want `TTL ttlSeconds is 10 nanoseconds: go-redis v9 sends EXPIRE 1 .*; write ttlSeconds\*time.Second`
}

// PExpire says milliseconds.
func pexpireBare(ctx context.Context, key string) {
	rdb.PExpire(ctx, key, 300) // want `TTL 300 is 300 nanoseconds: go-redis v9 sends PEXPIRE 1 .*; write 300\*time.Millisecond`
}

func namedMs(ctx context.Context, key, v string) {
	rdb.Set(ctx, key, v, leaseMs) // want `TTL leaseMs is 1500 nanoseconds.*write leaseMs\*time.Millisecond`
}

// A count converted to a Duration without its unit.
type config struct {
	LockTTLSeconds int
	TTLMs          int64
}

func convertedCount(ctx context.Context, cfg config, key, token string) {
	rdb.SetNX(ctx, key, token, time.Duration(cfg.LockTTLSeconds)) // want `SetNX takes a time.Duration, which counts nanoseconds, but time.Duration\(cfg.LockTTLSeconds\) counts seconds: the TTL is a billion times shorter than meant; multiply by time.Second`
	rdb.Expire(ctx, key, lockTTL/time.Second)                     // want `Expire takes a time.Duration, which counts nanoseconds, but lockTTL/time.Second counts seconds.*pass lockTTL itself`
	rdb.PExpire(ctx, key, time.Duration(lockTTL.Milliseconds()))  // want `counts milliseconds: the TTL is a million times shorter than meant; pass lockTTL itself`
}

// A count multiplied by the wrong unit.
func wrongUnit(ctx context.Context, cfg config, key, token string) {
	rdb.SetNX(ctx, key, token, time.Duration(cfg.TTLMs)*time.Second) // want `time.Duration\(cfg.TTLMs\) counts milliseconds but is multiplied by time.Second: the TTL is 1000 times longer than meant; multiply by time.Millisecond`
}

// A time.Duration passed raw to Do.
func doDuration(ctx context.Context, key, token string, ttl time.Duration) {
	rdb.Do(ctx, "set", key, token, "nx", "px", ttl)      // want `PX takes an integer number of milliseconds, but ttl is a time.Duration: go-redis v9 sends a time.Duration as its nanosecond count: the TTL is a million times longer than meant; pass ttl.Milliseconds\(\)`
	rdb.Do(ctx, "SET", key, token, "EX", lockTTL, "NX")  // want `EX takes an integer number of seconds, but lockTTL is a time.Duration: go-redis v9 sends a time.Duration as its nanosecond count: EX 30000000000 means about 951 years, not 30s; pass int64\(lockTTL.Seconds\(\)\)`
	rdb.Do(ctx, "expire", key, int64(ttl))               // want `EXPIRE takes seconds, but int64\(ttl\) is in nanoseconds: the TTL is a billion times longer than meant; pass int64\(ttl.Seconds\(\)\)`
	rdb.Do(ctx, "pexpire", key, ttl.Seconds())           // want `PEXPIRE takes milliseconds, but ttl.Seconds\(\) is in seconds: the TTL is 1000 times shorter than meant; pass ttl.Milliseconds\(\)`
	rdb.Do(ctx, "set", key, token, "px", 30*time.Second) // want `PX takes an integer number of milliseconds, but 30\*time.Second is a time.Duration: go-redis v9 sends a time.Duration as its nanosecond count: PX 30000000000 means about 347 days, not 30s; pass \(30\*time.Second\).Milliseconds\(\)`
}

// Unix times in the wrong unit.
func unixTimes(ctx context.Context, key string, ttl time.Duration) {
	at := time.Now().Add(ttl)
	rdb.Do(ctx, "expireat", key, at.UnixMilli())               // want `EXPIREAT takes a Unix time in seconds, but at.UnixMilli\(\) is in milliseconds: the expiry lands thousands of years from now: the key never expires; pass t.Unix\(\)`
	rdb.Do(ctx, "pexpireat", key, at.Unix())                   // want `PEXPIREAT takes a Unix time in milliseconds, but at.Unix\(\) is in seconds: the expiry lands a moment near 1970: the key expires at once; pass t.UnixMilli\(\)`
	rdb.Do(ctx, "set", key, "v", "ex", at.Unix())              // want `EX takes a TTL in seconds, but at.Unix\(\) is a Unix time: the key lives for decades`
	rdb.Do(ctx, "set", key, "v", "exat", int64(ttl.Seconds())) // want `EXAT takes a Unix time in seconds, but int64\(ttl.Seconds\(\)\) is a duration: the key expires at a moment near 1970, that is at once`
}

// An integer parameter converted straight to a time.Duration: the
// callers' 60 is 60ns.
func lockUser(ctx context.Context, uid string, expire int64) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+uid, "locked", time.Duration(expire)).Result() // want `SetNX takes a time.Duration, and time.Duration\(expire\) turns the int64 parameter expire into that many nanoseconds`
}

// Near misses: the unit is applied; a Duration parameter; not a lock.
func lockUserSeconds(ctx context.Context, uid string, expire int64) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+uid, "locked", time.Duration(expire)*time.Second).Result()
}

func lockUserDuration(ctx context.Context, uid string, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+uid, "locked", time.Duration(ttl)).Result()
}
