package expiry

import (
	"github.com/gomodule/redigo/redis"
)

func redigoSetnx(pool *redis.Pool, name string) (bool, error) {
	conn := pool.Get()
	defer conn.Close()
	key := "lock:" + name
	ok, err := redis.Int(conn.Do("SETNX", key, 1)) // want `lock key is acquired with SETNX and given its TTL by a separate EXPIRE`
	if err != nil || ok == 0 {
		return false, err
	}
	if _, err := conn.Do("EXPIRE", key, 60); err != nil {
		return false, err
	}
	return true, nil
}

func redigoUnlock(pool *redis.Pool, name string) {
	conn := pool.Get()
	defer conn.Close()
	conn.Do("DEL", "lock:"+name)
}

// SET NX without EX/PX, options in lower case and split over lines.
func redigoLockNoTTL(conn redis.Conn, key, token string) {
	conn.Do("set", key, token, // want `acquired with SET NX and given its TTL by a separate PEXPIRE`
		"nx")
	conn.Do("pexpire", key, 30000)
}

// Negative: options in any order, TTL present.
func redigoGood(conn redis.Conn, key, token string) {
	conn.Do("SET", key, token, "EX", 30, "NX")
	conn.Do("set", key, token, "px", 30000, "nx")
	conn.Do("DEL", key)
}

// Negative: MULTI/EXEC makes SETNX+EXPIRE atomic.
func redigoMulti(conn redis.Conn, key, token string) {
	conn.Send("MULTI")
	conn.Send("SETNX", key, token)
	conn.Send("EXPIRE", key, 30)
	conn.Do("EXEC")
	conn.Do("DEL", key)
}

// Negative: options we cannot read.
func redigoSpread(conn redis.Conn, key, token string, opts ...interface{}) {
	conn.Do("SET", append([]interface{}{key, token, "NX"}, opts...)...)
	conn.Do("DEL", key)
}
