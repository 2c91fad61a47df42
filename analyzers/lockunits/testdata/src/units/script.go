package units

import (
	"context"
	"strconv"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

const acquireLua = `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`

var acquireScript = redis.NewScript(acquireLua)

var renewScript = redigo.NewScript(1, `
local ttl = tonumber(ARGV[2])
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ttl)
end
return 0`)

func scriptAcquire(ctx context.Context, key, token string, ttl time.Duration) (interface{}, error) {
	return acquireScript.Run(ctx, rdb, []string{key}, token, ttl).Result() // want `PX \(ARGV\[2\] in the script\) takes an integer number of milliseconds, but ttl is a time.Duration: go-redis v9 sends a time.Duration as its nanosecond count: the TTL is a million times longer than meant; pass ttl.Milliseconds\(\)`
}

func scriptEval(ctx context.Context, key, token string, ttl time.Duration) error {
	return rdb.Eval(ctx, acquireLua, []string{key}, token, int64(ttl.Seconds())).Err() // want `PX \(ARGV\[2\] in the script\) takes milliseconds, but int64\(ttl.Seconds\(\)\) is in seconds: the TTL is 1000 times shorter than meant; pass ttl.Milliseconds\(\)`
}

func scriptRenew(conn redigo.Conn, key, token string, ttl time.Duration) error {
	_, err := renewScript.Do(conn, key, token, ttl.Milliseconds())
	return err
}

func scriptRenewWrong(conn redigo.Conn, key, token string, ttl time.Duration) error {
	_, err := renewScript.Do(conn, key, token, ttl.Seconds()) // want `PEXPIRE \(ARGV\[2\] in the script\) takes milliseconds, but ttl.Seconds\(\) is in seconds`
	return err
}

const extendLua = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("EXPIRE", KEYS[1], ARGV[2]) end return 0`

// string(rune(n)) is the character with code point n, not n's digits.
func scriptExtendRune(ctx context.Context, key, token string, ttl time.Duration) error {
	return rdb.Eval(ctx, extendLua, []string{key}, token, string(rune(int(ttl.Seconds())))).Err() // want `EXPIRE \(ARGV\[2\] in the script\) takes a number of seconds, but string\(rune\(int\(ttl.Seconds\(\)\)\)\) makes the one character whose code point is that number`
}

// Its digits are what EXPIRE reads.
func scriptExtendDigits(ctx context.Context, key, token string, ttl time.Duration) error {
	return rdb.Eval(ctx, extendLua, []string{key}, token, strconv.Itoa(int(ttl.Seconds()))).Err()
}

func setRune(ctx context.Context, key string, secs int) error {
	return rdb.Do(ctx, "SET", key, "v", "EX", string(rune(secs)), "NX").Err() // want `EX takes a number of seconds, but string\(rune\(secs\)\) makes the one character`
}
