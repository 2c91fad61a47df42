package election

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

// A leader that keeps its key alive in its own loop, not a goroutine:
// each tick it calls a helper that sends PEXPIRE and keeps only its
// error, so a key found gone (reply 0) reads as "still master".
type master struct {
	pool *redis.Pool
	id   string
}

const masterKey = "app:master"

func (m *master) campaign() bool {
	conn := m.pool.Get()
	defer conn.Close()
	ok, _ := redis.String(conn.Do("SET", masterKey, m.id, "NX", "PX", 3000))
	return ok == "OK"
}

func (m *master) lead(stop chan bool) {
	if !m.campaign() {
		return
	}
	tick := time.NewTicker(time.Second).C
	for {
		<-tick
		if m.expire() {
			close(stop)
			return
		}
	}
}

func (m *master) expire() bool {
	conn := m.pool.Get()
	defer conn.Close()
	if _, err := conn.Do("PEXPIRE", masterKey, 3000); err != nil { // want `this keep-alive renews with PEXPIRE of lock masterKey but drops the outcome`
		return true
	}
	return false
}

// Near miss: the helper answers from the reply, so a key found gone
// stops the workers too.
func (m *master) leadChecked(stop chan bool) {
	if !m.campaign() {
		return
	}
	tick := time.NewTicker(time.Second).C
	for {
		<-tick
		if m.lost() {
			close(stop)
			return
		}
	}
}

func (m *master) lost() bool {
	conn := m.pool.Get()
	defer conn.Close()
	n, err := redis.Int(conn.Do("PEXPIRE", masterKey, 3000))
	return err != nil || n == 0
}
