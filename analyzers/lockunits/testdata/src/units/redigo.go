package units

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

type Locker struct {
	pool *redis.Pool
	ttl  time.Duration
}

func (l *Locker) TryLock(key, token string) (bool, error) {
	conn := l.pool.Get()
	defer conn.Close()
	reply, err := redis.String(conn.Do("SET", key, token, "NX", "PX", l.ttl)) // want `PX takes an integer number of milliseconds, but l.ttl is a time.Duration: redigo writes a time.Duration as its String form, which Redis rejects as not an integer: the command fails every time; pass l.ttl.Milliseconds\(\); or use safelock.Locker.TryAcquire`
	return reply == "OK", err
}

// Options in another order and case, split over lines.
func (l *Locker) TryLockSeconds(key, token string) (bool, error) {
	conn := l.pool.Get()
	defer conn.Close()
	reply, err := redis.String(conn.Do("set", key, token,
		"ex", l.ttl.Milliseconds(), // want `EX takes seconds, but l.ttl.Milliseconds\(\) is in milliseconds: the TTL is 1000 times longer than meant; pass int64\(l.ttl.Seconds\(\)\)`
		"nx"))
	return reply == "OK", err
}

func (l *Locker) Refresh(conn redis.Conn, key string) error {
	_, err := conn.Do("PEXPIRE", key, l.ttl.Seconds()) // want `PEXPIRE takes milliseconds, but l.ttl.Seconds\(\) is in seconds: the TTL is 1000 times shorter than meant; pass l.ttl.Milliseconds\(\)`
	return err
}

// A constant Duration says what redigo sends.
func lockConst(conn redis.Conn, key string) error {
	_, err := conn.Do("SET", key, "1", "NX", "EX", lockTTL) // want `EX takes an integer number of seconds, but lockTTL is a time.Duration: redigo writes a time.Duration as "30s", which Redis rejects`
	return err
}

// Only the name says milliseconds: swap the option word.
func byName(conn redis.Conn, key, token string, lockTimeoutMs int) error {
	_, err := conn.Do("SET", key, token, "NX", "EX", lockTimeoutMs) // want `EX takes seconds, but lockTimeoutMs is in milliseconds: the TTL is 1000 times longer than meant`
	return err
}

// A Duration that holds a count is still written as text by redigo.
func durCount(conn redis.Conn, key string) error {
	_, err := conn.Do("EXPIRE", key, lockTTL/time.Second) // want `EXPIRE takes an integer number of seconds, but lockTTL/time.Second is a time.Duration: redigo writes a time.Duration as its String form.*pass int64\(lockTTL/time.Second\)`
	return err
}

func setex(conn redis.Conn, key string, ttl time.Duration) error {
	_, err := conn.Do("SETEX", key, int64(ttl/time.Millisecond), "v") // want `SETEX takes seconds, but int64\(ttl/time.Millisecond\) is in milliseconds: the TTL is 1000 times longer than meant; pass int64\(ttl.Seconds\(\)\)`
	return err
}
