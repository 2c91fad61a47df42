// Package unitshelper passes TTLs to helpers that hand them on to EX and
// PX: the caller's argument is checked as if it stood there.
package unitshelper

import (
	"time"

	"github.com/gomodule/redigo/redis"

	"unitslib"
)

// pexpire refreshes key for ttl milliseconds.
func pexpire(conn redis.Conn, key string, ttl int64) error { // want pexpire:"passes on as a TTL: param 2 to PEXPIRE"
	_, err := conn.Do("PEXPIRE", key, ttl)
	return err
}

// refreshFor goes one helper further.
func refreshFor(conn redis.Conn, key string, ms int64) error { // want refreshFor:"passes on as a TTL: param 2 to PEXPIRE"
	return pexpire(conn, key, ms)
}

func lockSession(conn redis.Conn, key, secret string) bool {
	lockTimeout := 10 * time.Second
	return unitslib.WriteLock(conn, key, secret, int64(lockTimeout)) // want `EX \(ARGV\[2\] in the script\) at unitslib.go:\d+, through WriteLock takes seconds, but int64\(lockTimeout\) is in nanoseconds`
}

func lockSessionSeconds(conn redis.Conn, key, secret string) bool {
	lockTimeout := 10 * time.Second
	return unitslib.WriteLock(conn, key, secret, int64(lockTimeout/time.Second))
}

func keepAlive(conn redis.Conn, key string, ttl time.Duration) error {
	if err := pexpire(conn, key, ttl.Milliseconds()); err != nil {
		return err
	}
	return refreshFor(conn, key, int64(ttl.Seconds())) // want `PEXPIRE at unitshelper.go:\d+, through refreshFor takes milliseconds, but int64\(ttl.Seconds\(\)\) is in seconds`
}

// A plain number says nothing of its unit: silent.
func keepAliveRaw(conn redis.Conn, key string) error {
	return pexpire(conn, key, 30000)
}
