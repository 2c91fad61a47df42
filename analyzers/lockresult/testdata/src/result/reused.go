package result

import (
	"log"

	"github.com/gomodule/redigo/redis"
)

func saveOrder(id string) error { return nil }
func notify(id string) error    { return nil }

// err is the acquire's until SaveOrder assigns it: the later test logs
// SaveOrder's failure, not the lock's.
func Callback(conn redis.Conn, id string) {
	lock, err := conn.Do("SET", "pay:"+id, id, "NX", "EX", 30)
	if err != nil || lock == nil {
		return
	}
	defer conn.Do("DEL", "pay:"+id)
	err = saveOrder(id)
	if err != nil {
		log.Printf("save: %v", err)
	}
	notify(id)
}

// Here the test right after the acquire only logs: notify runs unlocked.
func CallbackLogged(conn redis.Conn, id string) {
	lock, err := conn.Do("SET", "pay:"+id, id, "NX", "EX", 30)
	if lock == nil {
		return
	}
	if err != nil { // want `when SET NX of "pay:" \+ id fails \(err != nil\), this branch falls through into the code that needs the lock: notify\(...\) runs without it`
		log.Printf("lock: %v", err)
	}
	defer conn.Do("DEL", "pay:"+id)
	notify(id)
}
