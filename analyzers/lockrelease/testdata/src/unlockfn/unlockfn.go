// Package unlockfn takes its lock with RedisLock and gives it back with
// UnRedisLock: "un" before the lock's own name, as two words.
package unlockfn

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

func RedisLock(conn redis.Conn, lockKey string, ex int) error {
	defer conn.Close()
	v, err := conn.Do("SET", lockKey, time.Now().UnixNano(), "EX", ex, "NX")
	if err != nil {
		return err
	}
	if v == nil {
		return redis.ErrNil
	}
	return nil
}

func UnRedisLock(conn redis.Conn, lockKey string) error {
	defer conn.Close()
	_, err := conn.Do("DEL", lockKey) // want `lock lockKey is deleted with DEL without checking that this holder still owns it`
	return err
}

// Near miss: "un" beside no lock word undoes something else (a pinned
// cache entry), whatever key its caller passes.
func UnPinCache(conn redis.Conn, key string) error {
	defer conn.Close()
	_, err := conn.Do("DEL", key)
	return err
}
