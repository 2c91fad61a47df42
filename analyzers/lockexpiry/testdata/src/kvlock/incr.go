package kvlock

import (
	"errors"
	"fmt"

	redigo "github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

// StartLimit takes a lock with INCR: the first caller sees 1. The TTL
// comes in a second command.
func StartLimit(conn redigo.Conn, prefix, id string) error {
	key := fmt.Sprintf("%s_%s", prefix, id)
	reply, err := conn.Do("INCR", key) // want `lock key is acquired with INCR and given its TTL by a separate EXPIRE`
	if err != nil {
		return err
	}
	_, _ = conn.Do("EXPIRE", key, 20)
	n, err := redigo.Int(reply, err)
	if err != nil {
		return err
	}
	if n > 1 {
		return errBusy
	}
	return nil
}

func CancelLimit(conn redigo.Conn, prefix, id string) error {
	_, err := conn.Do("DEL", fmt.Sprintf("%s_%s", prefix, id))
	return err
}

// Allow is a rate limiter: the count is compared with a limit; the first
// hit sets the window's TTL.
func Allow(conn redigo.Conn, user string, limit int) bool {
	key := "rate:" + user
	n, err := redigo.Int(conn.Do("INCR", key))
	if err != nil {
		return false
	}
	if n == 1 {
		_, _ = conn.Do("EXPIRE", key, 60)
	}
	return n <= limit
}

// Incr counts and returns the count; the first hit sets the TTL. Its
// callers decide what the count means: no lock here.
func Incr(conn redigo.Conn, key string, ttl int) (int, error) {
	n, err := redigo.Int(conn.Do("INCR", key))
	if err != nil {
		return 0, err
	}
	if n == 1 {
		_, _ = conn.Do("EXPIRE", key, ttl)
	}
	return n, nil
}
