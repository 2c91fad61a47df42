package release

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

func redigoLock(conn redis.Conn, key, token string) error {
	ok, err := redis.String(conn.Do("SET", key, token, "NX", "PX", 30000))
	if err != nil || ok != "OK" {
		return errors.New("busy")
	}
	defer conn.Do("del", key) // want `lock key is deleted with DEL without checking that this holder still owns it`
	_, err = conn.Do("DEL", key) // want `deleted with DEL without checking`
	return err
}

// Negative: WATCH, GET, compare, MULTI, DEL, EXEC.
func redigoWatch(conn redis.Conn, key, token string) error {
	conn.Do("SET", key, token, "NX", "EX", 30)
	if _, err := conn.Do("WATCH", key); err != nil {
		return err
	}
	v, err := redis.String(conn.Do("GET", key))
	if err != nil || v != token {
		conn.Do("UNWATCH")
		return errors.New("not owner")
	}
	conn.Send("MULTI")
	conn.Send("DEL", key)
	_, err = conn.Do("EXEC")
	return err
}

var unlockScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

var blindScript2 = redis.NewScript(1, `redis.call("del", KEYS[1]) return 1`)

func redigoScripts(conn redis.Conn, key, token string) {
	conn.Do("SET", key, token, "NX", "EX", 30)
	unlockScript.Do(conn, key, token)
	blindScript2.Do(conn, key, token) // want `the Lua script deletes lock key without comparing its value`
}

// Negative: DELEX IFEQ (Redis 8.4) deletes only if the value matches.
func redigoDelex(conn redis.Conn, key, token string) {
	conn.Do("SET", key, token, "NX", "EX", 30)
	conn.Do("DELEX", key, "IFEQ", token)
}
