package fence

import (
	"github.com/gomodule/redigo/redis"
)

var pool = &redis.Pool{}

func redigoLock(id, token string) error {
	conn := pool.Get()
	defer conn.Close()
	key := "lock:acct:" + id
	reply, err := redis.String(conn.Do("set", key, token, "px", 5000, "nx"))
	if err != nil || reply != "OK" {
		return err
	}
	defer conn.Do("DEL", key)
	_, err = conn.Do("SET", "balance:"+id, 100) // want `Redis SET under lock key \(SET NX\) carries no fencing token`
	return err
}

// Reads only.
func redigoRead(id, token string) (string, error) {
	conn := pool.Get()
	defer conn.Close()
	if _, err := redis.String(conn.Do("SET", "lock:r", token, "NX", "EX", 5)); err != nil {
		return "", err
	}
	defer conn.Do("DEL", "lock:r")
	return redis.String(conn.Do("GET", "balance:"+id))
}
