package value

import (
	"fmt"
	"math/rand"
	"os"
	"time"

	garyburd "github.com/garyburd/redigo/redis"
	"github.com/gomodule/redigo/redis"
)

func redigoConst(conn redis.Conn, key string) error {
	if _, err := redis.String(conn.Do("SET", key, "locked", "NX", "PX", 30000)); err != nil { // want `lock key stores the constant "locked" as its value`
		return err
	}
	_, err := conn.Do("DEL", key)
	return err
}

// Options in any order and case, split over lines. The host, the process
// and a second-resolution timestamp: two goroutines of the process acquire
// within one second.
func redigoOwner(conn redis.Conn, key string) {
	host, _ := os.Hostname()
	owner := fmt.Sprintf("%s/%d/%d", host, os.Getpid(), time.Now().Unix())
	reply, err := conn.Do("set", key, owner, // want `lock key stores a timestamp, the hostname and the process ID as its value`
		"px", 30000,
		"nx")
	if err != nil || reply == nil {
		return
	}
	conn.Do("del", key)
}

// A nanosecond timestamp with the host or the process: two holders would
// need the same process and the same nanosecond.
func redigoNanoOwner(conn redis.Conn, key string) {
	host, _ := os.Hostname()
	owner := fmt.Sprintf("%s-%d", host, time.Now().UnixNano())
	reply, err := conn.Do("SET", key, owner, "PX", 30000, "NX")
	if err != nil || reply == nil {
		return
	}
	conn.Do("del", key)
}

func garyburdRand(conn garyburd.Conn, key string) {
	r := rand.New(rand.NewSource(time.Now().UnixNano()))
	if reply, _ := conn.Do("SET", key, r.Int63(), "EX", 30, "NX"); reply == nil { // want `lock key stores math/rand output as its value`
		panic("lock busy")
	}
	conn.Do("DEL", key)
}

// SETNX then EXPIRE elsewhere keeps the lock: still a lock.
func redigoSetnx(conn redis.Conn, key string) {
	if reply, _ := conn.Do("SETNX", key, 1); reply == nil { // want `lock key stores the constant 1 as its value`
		panic("lock busy")
	}
	conn.Do("EXPIRE", key, 30)
	go conn.Do("DEL", key)
}
