package result

import (
	"log"

	"github.com/gomodule/redigo/redis"
)

type RedisLock struct {
	pool *redis.Pool
	key  string
}

func (l *RedisLock) Lock(token string) {
	conn := l.pool.Get()
	defer conn.Close()
	conn.Do("SET", l.key, token, "NX", "PX", 30000) // want `the result of SET NX of l.key is discarded: the code goes on whether or not it got the lock \(a lock held by someone else comes back as a nil reply with a nil error\)`
}

func (l *RedisLock) TryLock(token string) error {
	conn := l.pool.Get()
	defer conn.Close()
	_, err := conn.Do("set", l.key, token, // want `only the error of SET NX of l.key is checked: a lock held by someone else comes back as a nil reply with a nil error, so this code goes on without the lock; check the reply \(redis.String\(conn.Do\(...\)\) returns redis.ErrNil when the lock is held\)`
		"px", 30000, "nx")
	return err
}

func (l *RedisLock) TrySetNX(token string) error {
	conn := l.pool.Get()
	defer conn.Close()
	_, err := redis.Int(conn.Do("SETNX", l.key, token)) // want `only the error of SETNX of l.key is checked: a lock held by someone else comes back as 0 with a nil error`
	return err
}

func (l *RedisLock) Unlock() error {
	conn := l.pool.Get()
	defer conn.Close()
	_, err := conn.Do("DEL", l.key)
	return err
}

func (l *RedisLock) Run(token string, work func()) {
	conn := l.pool.Get()
	defer conn.Close()
	reply, err := conn.Do("SET", l.key, token, "NX", "EX", 30)
	if err != nil {
		return
	}
	if reply == nil { // want `when SET NX of l.key fails \(reply == nil\), this branch falls through into the code that needs the lock: l.Unlock\(...\) runs without it`
		log.Println("busy")
	}
	work()
	l.Unlock()
}
