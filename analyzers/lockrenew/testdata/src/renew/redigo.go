package renew

import (
	garyburd "github.com/garyburd/redigo/redis"
	"github.com/gomodule/redigo/redis"
)

func redigoWork(conn redis.Conn, key string, secs int, items []string) error {
	token := newToken()
	if _, err := redis.String(conn.Do("SET", key, token, "NX", "PX", 30000)); err != nil {
		return err
	}
	defer conn.Do("DEL", key)
	for range items {
		conn.Do("PEXPIRE", key, 30000)                          // want `lock key is renewed with PEXPIRE without checking`
		conn.Do("expire", key, 30)                              // want `lock key is renewed with EXPIRE without checking`
		if _, err := conn.Do("EXPIRE", key, secs); err != nil { // want `lock key is renewed with EXPIRE without checking`
			return err
		}
		conn.Do("EXPIRE", key, float64(secs)) // want `lock key is renewed with EXPIRE without checking`
	}
	return nil
}

// Options in any order and case, the renewal in another method of the type.
type redigoLock struct {
	pool  *redis.Pool
	name  string
	value string
}

func (l *redigoLock) Lock() bool {
	conn := l.pool.Get()
	defer conn.Close()
	ok, _ := redis.String(conn.Do("set", "lock:"+l.name, l.value,
		"px", 30000,
		"nx"))
	return ok == "OK"
}

func (l *redigoLock) Extend() error {
	conn := l.pool.Get()
	defer conn.Close()
	_, err := conn.Do("PEXPIRE", "lock:"+l.name, 30000) // want `lock "lock:" \+ l.name is renewed with PEXPIRE without checking`
	return err
}

// SET XX with a TTL re-arms the key whoever holds it.
func (l *redigoLock) ExtendXX() error {
	conn := l.pool.Get()
	defer conn.Close()
	_, err := conn.Do("SET", "lock:"+l.name, l.value, "XX", "PX", 30000) // want `lock "lock:" \+ l.name is renewed with SET XX, which overwrites the key whoever holds it`
	return err
}

var redigoRenew = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

// Negative: compare-and-expire script.
func (l *redigoLock) ExtendSafely() error {
	conn := l.pool.Get()
	defer conn.Close()
	_, err := redigoRenew.Do(conn, "lock:"+l.name, l.value, 30000)
	return err
}

// Negative: WATCH, GET and compare, then PEXPIRE queued in MULTI/EXEC.
func (l *redigoLock) ExtendWatched() error {
	conn := l.pool.Get()
	defer conn.Close()
	if _, err := conn.Do("WATCH", "lock:"+l.name); err != nil {
		return err
	}
	v, err := redis.String(conn.Do("GET", "lock:"+l.name))
	if err != nil || v != l.value {
		conn.Do("UNWATCH")
		return err
	}
	conn.Send("MULTI")
	conn.Send("PEXPIRE", "lock:"+l.name, 30000)
	_, err = conn.Do("EXEC")
	return err
}

// garyburd/redigo, in a goroutine.
func garyburdWatchdog(c garyburd.Conn, key string) {
	token := newToken()
	if reply, _ := c.Do("SET", key, token, "EX", 30, "NX"); reply == nil {
		panic("lock busy")
	}
	go c.Do("EXPIRE", key, 30) // want `lock key is renewed with EXPIRE without checking`
}
