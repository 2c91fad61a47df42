// Package shapes holds releases in the shapes found in public projects.
package shapes

import (
	"context"
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"

	"cachekv"
)

// Through a project wrapper whose Del spreads its variadic keys.
type Mutex struct {
	m   *cachekv.Manager
	key string
	tok string
}

func (l *Mutex) Lock() bool {
	return l.m.SetNX("mutex:"+l.key, l.tok, time.Minute) == nil
}

func (l *Mutex) Unlock() {
	l.m.Del("mutex:" + l.key) // want `lock "mutex:" \+ l.key is deleted with DEL \(in Manager.Del at cachekv.go:29\) without checking`
}

// The acquire returns a handle whose method releases: a GET, a compare in
// Go, then DEL.
type Client struct{ rdb goredis.Cmdable }

type Lock struct {
	rdb goredis.Cmdable
	val string
}

func (c *Client) TryLock(ctx context.Context, key, val string, ttl time.Duration) (*Lock, bool, error) {
	ok, err := c.rdb.SetNX(ctx, key, val, ttl).Result()
	return &Lock{rdb: c.rdb, val: val}, ok, err
}

func (l *Lock) Unlock(ctx context.Context, key string) error {
	cur, err := l.rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if cur != l.val {
		return errors.New("not mine")
	}
	return l.rdb.Del(ctx, key).Err() // want `lock key is read with GET and then deleted with a separate DEL`
}

// Entry is returned by Fetch, but its Drop deletes a cache entry the
// caller names: Fetch takes no lock.
type Entry struct{ rdb goredis.Cmdable }

func (c *Client) Fetch(ctx context.Context, key string) (*Entry, string) {
	return &Entry{rdb: c.rdb}, c.rdb.Get(ctx, key).Val()
}

func (e *Entry) Drop(ctx context.Context, key string) {
	e.rdb.Del(ctx, key)
}

// The SET's arguments are built in a slice: key, value, an optional EX and
// NX. The release deletes without comparing.
func LockArgs(conn redis.Conn, key string, value interface{}, expire int64) bool {
	args := []interface{}{key, value}
	if expire > 0 {
		args = append(args, "EX", expire)
	}
	args = append(args, "NX")
	reply, _ := redis.String(conn.Do("SET", args...))
	return reply == "OK"
}

func UnlockArgs(conn redis.Conn, key string) {
	_, _ = conn.Do("DEL", key) // want `lock key is deleted with DEL without checking`
}

// A slice changed after the literal in ways we cannot follow stays unknown.
func SetArgs(conn redis.Conn, key string, value interface{}, opts []interface{}) bool {
	args := []interface{}{key, value}
	args = append(args, opts...)
	reply, _ := redis.String(conn.Do("SET", args...))
	return reply == "OK"
}

func ForgetArgs(conn redis.Conn, key string) {
	_, _ = conn.Do("DEL", key)
}

// A cache drops a corrupt entry, then refills a placeholder with NX: the
// delete comes before the write, so this is no lock.
type Cache struct{ rdb goredis.Cmdable }

func (c *Cache) get(ctx context.Context, key string) (string, error) {
	v, err := c.rdb.Get(ctx, key).Result()
	if err == nil && v == "" {
		c.rdb.Del(ctx, key)
		return "", goredis.Nil
	}
	return v, err
}

func (c *Cache) fill(ctx context.Context, key string) error {
	_, err := c.rdb.SetNX(ctx, key, "*", time.Minute).Result()
	return err
}

func (c *Cache) Take(ctx context.Context, key string) (string, error) {
	v, err := c.get(ctx, key)
	if err == goredis.Nil {
		if err := c.fill(ctx, key); err != nil {
			return "", err
		}
	}
	return v, nil
}
