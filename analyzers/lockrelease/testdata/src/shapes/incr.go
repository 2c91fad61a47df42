package shapes

import (
	"errors"
	"fmt"

	"github.com/gomodule/redigo/redis"
)

// An INCR lock (the first caller sees 1) released with a plain DEL.
func StartLimit(conn redis.Conn, prefix, id string) error {
	key := fmt.Sprintf("%s_%s", prefix, id)
	n, err := redis.Int(conn.Do("INCR", key))
	if err != nil {
		return err
	}
	_, _ = conn.Do("EXPIRE", key, 20)
	if n != 1 {
		return errors.New("busy")
	}
	return nil
}

func CancelLimit(conn redis.Conn, prefix, id string) error {
	_, err := conn.Do("DEL", fmt.Sprintf("%s_%s", prefix, id)) // want `lock fmt.Sprintf\("%s_%s", prefix, id\) is deleted with DEL without checking`
	return err
}

// A counter of visits, reset by a DEL: no lock.
func Visit(conn redis.Conn, page string) int {
	n, _ := redis.Int(conn.Do("INCR", "visits:"+page))
	return n
}

func ResetVisits(conn redis.Conn, page string) {
	_, _ = conn.Do("DEL", "visits:"+page)
}
