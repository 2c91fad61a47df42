// Package shapes holds lock code in the shapes found in public projects.
package shapes

import (
	"context"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"

	"goid"
)

var rdb goredis.Cmdable

// Lock and TryLock are one lock API with one Unlock: the timestamp both
// store is one value made once per call, reported once per function.
func Lock(key string, ttl time.Duration) bool { // want Lock:`weak value: acquires with a timestamp`
	value := time.Now().Format(time.RFC3339Nano)
	return rdb.SetNX(context.Background(), key, value, ttl).Val() // want `lock key stores a timestamp as its value`
}

func TryLock(ctx context.Context, key string, ttl time.Duration) bool { // want TryLock:`weak value: acquires with a timestamp`
	value := time.Now().Format(time.RFC3339Nano)
	if rdb.SetNX(ctx, key, value, ttl).Val() { // want `lock key stores a timestamp as its value`
		return true
	}
	for i := 0; i < 3; i++ {
		if rdb.SetNX(ctx, key, value, ttl).Val() {
			return true
		}
	}
	return false
}

func UnLock(key string) {
	rdb.Del(context.Background(), key)
}

// RedisLock names the lock in its type; Set and Release are its acquire
// and release.
type RedisLock struct{ pool *redis.Pool }

func (r *RedisLock) Set(key string, expire time.Duration) (bool, string) { // want Set:`weak value: result 1 is a timestamp, acquires with a timestamp`
	conn := r.pool.Get()
	defer conn.Close()
	val := fmt.Sprint(time.Now().UnixMilli())
	reply, _ := conn.Do("SET", key, val, "NX", "PX", int(expire/time.Millisecond)) // want `lock key stores a timestamp as its value`
	return reply != nil, val
}

func (r *RedisLock) Release(key, val string) {
	conn := r.pool.Get()
	defer conn.Close()
	_, _ = conn.Do("DEL", key)
}

// Cache has no lock in its name: Set stores a version stamp, Release
// drops the entry. Not a lock.
type Cache struct{ pool *redis.Pool }

func (c *Cache) Set(key string) (bool, string) { // want Set:`weak value: result 1 is a timestamp, acquires with a timestamp`
	conn := c.pool.Get()
	defer conn.Close()
	val := fmt.Sprint(time.Now().UnixMilli())
	reply, _ := conn.Do("SET", key, val, "NX", "EX", 60)
	return reply != nil, val
}

func (c *Cache) Release(key string) {
	conn := c.pool.Get()
	defer conn.Close()
	_, _ = conn.Do("DEL", key)
}

// Store sends every command through its own do, as redigo wrappers do.
type Store struct{ conn redis.Conn }

func (s *Store) do(cmd string, args ...interface{}) (interface{}, error) {
	return s.conn.Do(cmd, args...)
}

func (s *Store) SetNX(key string, value interface{}, seconds int) (bool, error) {
	reply, err := s.do("SET", key, value, "EX", seconds, "NX")
	return reply != nil, err
}

func (s *Store) Delete(key string) error {
	_, err := s.do("DEL", key)
	return err
}

func (s *Store) WithLock(key string, fn func()) error {
	ok, err := s.SetNX(key, 1, 60) // want `lock key stores the constant 1 as its value`
	if err != nil || !ok {
		return err
	}
	defer s.Delete(key)
	fn()
	return nil
}

// Mutex takes its token from goid; its release runs a script through a
// wrapper locklint cannot read, so the lock's name is the evidence.
type Mutex struct {
	key   string
	token string
	eval  func(src string, keysAndArgs []interface{}) error
}

func NewMutex(key string) *Mutex {
	return &Mutex{key: "mutex:" + key, token: goid.Token()} // want `lock m.key stores the process ID and a goroutine id as its value`
}

func (m *Mutex) Lock(ctx context.Context) bool {
	return rdb.SetNX(ctx, m.key, m.token, time.Minute).Val()
}

func (m *Mutex) Unlock() error {
	return m.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end", []interface{}{m.key, m.token})
}

// SetNXDemo prints what SETNX answers and cleans up: no lock.
func SetNXDemo(ctx context.Context) {
	key := "example:setnx"
	ok, _ := rdb.SetNX(ctx, key, "first", time.Minute).Result()
	fmt.Println("first SetNX:", ok)
	ok, _ = rdb.SetNX(ctx, key, "second", time.Minute).Result()
	fmt.Printf("second SetNX: %t\n", ok)
	rdb.Del(ctx, key)
}
