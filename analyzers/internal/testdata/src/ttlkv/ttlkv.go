// Package ttlkv sets a key only if absent, with a TTL in one script when
// its caller gives one, and with a bare SETNX when the caller passes 0.
package ttlkv

import (
	"encoding/json"

	"github.com/gomodule/redigo/redis"
)

type DB struct{ pool *redis.Pool }

var setNXEx = redis.NewScript(1, `if redis.call("SETNX", KEYS[1], ARGV[1]) == 1 then return redis.call("EXPIRE", KEYS[1], ARGV[2]) else return 0 end`)

func (d *DB) SetNotExists(key string, value any, expires int) (bool, error) {
	data, err := json.Marshal(value)
	if err != nil {
		return false, err
	}
	conn := d.pool.Get()
	defer conn.Close()
	if expires > 0 {
		n, err := redis.Int(setNXEx.Do(conn, key, data, expires))
		return n == 1, err
	}
	n, err := redis.Int(conn.Do("SETNX", key, data))
	return n == 1, err
}

// Mark always sets without a TTL, whatever it is given.
func (d *DB) Mark(key string, value any, expires int) (bool, error) {
	_ = expires
	conn := d.pool.Get()
	defer conn.Close()
	n, err := redis.Int(conn.Do("SETNX", key, value))
	return n == 1, err
}

func (d *DB) Del(key string) error {
	conn := d.pool.Get()
	defer conn.Close()
	_, err := conn.Do("DEL", key)
	return err
}
