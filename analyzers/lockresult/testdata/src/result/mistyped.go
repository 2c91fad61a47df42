package result

import (
	"context"
	"errors"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

// A reentrant hash lock: 1 acquired, 2 re-entered, 0 held by another.
var reentrantLock = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`)

var reentrantUnlock = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) > 0 then return 1 end
redis.call('DEL', KEYS[1])
return 1`)

// The interface{} reply holds int64(0): f == 0 is never true.
func tryHashLock(ctx context.Context, key, token string) (ok bool, err error) {
	f, err := reentrantLock.Run(ctx, rdb, []string{"lock:" + key}, token, 30000).Result() // want `the reply of this acquire is an interface\{\} holding an int64, but f == 0 compares it with an int`
	if err != nil {
		return false, err
	}
	if f == 0 {
		return false, nil
	}
	return true, nil
}

func unlockHash(ctx context.Context, key, token string) error {
	return reentrantUnlock.Run(ctx, rdb, []string{"lock:" + key}, token).Err()
}

// Read as a number: right.
func tryHashLockInt(ctx context.Context, key, token string) (bool, error) {
	n, err := reentrantLock.Run(ctx, rdb, []string{"lock:" + key}, token, 30000).Int64()
	if err != nil {
		return false, err
	}
	return n != 0, nil
}

// Compared with an int64: right.
func tryHashLockTyped(ctx context.Context, key, token string) (bool, error) {
	f, err := reentrantLock.Run(ctx, rdb, []string{"lock:" + key}, token, 30000).Result()
	if err != nil {
		return false, err
	}
	return f != int64(0), nil
}

// redigo's SETNX reply is an int64 too: reply == 0 is never true, and
// a refusal reads as a grant.
func setnxLock(conn redigo.Conn, key, token string) (bool, error) {
	reply, err := conn.Do("SETNX", "lock:"+key, token) // want `the reply of this acquire is an interface\{\} holding an int64, but reply == 0 compares it with an int`
	if err != nil {
		return false, err
	}
	if reply == 0 {
		return false, nil
	}
	_, err = conn.Do("PEXPIRE", "lock:"+key, int64(30*time.Second/time.Millisecond))
	return true, err
}

// A dead test for success only fails closed: the grant is read as
// "OK" first, and res == 0 never hands out a second lock.
func setnxStatus(ctx context.Context, key, token string) (bool, error) {
	res, err := reentrantLock.Run(ctx, rdb, []string{"lock:" + key}, token, 30000).Result()
	if err != nil {
		return false, err
	}
	if res == "OK" {
		return true, nil
	}
	if res == 0 {
		return true, nil
	}
	return false, nil
}

var window = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if n > tonumber(ARGV[2]) then return 0 end
return 1`)

// A rate limiter's reply, no lock: the same mistake is not this
// analyzer's to report.
func allowed(ctx context.Context, user string) bool {
	v, err := window.Run(ctx, rdb, []string{"rate:" + user}, 1000, 10).Result()
	return err == nil && v != 0
}

// The script loaded once and sent by its SHA1: the same reply.
func tryHashLockSha(ctx context.Context, key, token string) (bool, error) {
	sha, err := reentrantLock.Load(ctx, rdb).Result()
	if err != nil {
		return false, err
	}
	f, err := rdb.EvalSha(ctx, sha, []string{"lock:" + key}, token, 30000).Result() // want `the reply of this acquire is an interface\{\} holding an int64, but f == 0 compares it with an int`
	if err != nil || f == 0 {
		return false, err
	}
	return true, nil
}

// res != 0 is always true: the retry loop leaves at the first attempt,
// held or not, and the caller goes on as the holder.
func spinLock(conn redigo.Conn, key string) error {
	for {
		res, err := conn.Do("SETNX", "lock:"+key, "locking") // want `the reply of this acquire is an interface\{\} holding an int64, but res != 0 compares it with an int: an int64 in an interface never equals an int, so this test for a grant is always true`
		if err != nil {
			return err
		}
		if res != 0 {
			break
		}
	}
	return nil
}

// Near miss: res != int64(0) compares with an int64, and works.
func spinLockTyped(conn redigo.Conn, key string) error {
	for {
		res, err := conn.Do("SETNX", "lock:"+key, "locking")
		if err != nil {
			return err
		}
		if res != int64(0) {
			break
		}
	}
	return nil
}

// Near miss: an always-true test whose branch leaves as a failure only
// fails closed.
func spinGiveUp(conn redigo.Conn, key string) error {
	res, err := conn.Do("SETNX", "lock:"+key, "locking")
	if err != nil {
		return err
	}
	if res != 0 {
		return errors.New("busy")
	}
	return nil
}
