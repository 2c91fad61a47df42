package model

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"

	"locker"
)

var rdb = redis.NewClient(&redis.Options{})

//go:embed unlock.lua
var unlockLua string

var unlock = redis.NewScript(unlockLua)

const releaseSrc = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

func goredis(ctx context.Context, id string) {
	key := fmt.Sprintf("lock:%s", id)
	rdb.SetNX(ctx, key, "tok", 10*time.Second) // want `lock concat\("lock:",\*\): delete; delete checked; delete checked; read; delete`
	rdb.Del(ctx, fmt.Sprintf("lock:%s", id))
	unlock.Run(ctx, rdb, []string{key}, "tok")
	rdb.Eval(ctx, releaseSrc, []string{key}, "tok")
	rdb.Get(ctx, key)
	rdb.Del(ctx, key)
}

func setArgs(ctx context.Context) {
	rdb.SetArgs(ctx, "job", "v", redis.SetArgs{Mode: "NX"}) // want `lock "job": expire`
	rdb.Expire(ctx, "job", time.Second)
}

func watch(ctx context.Context, key, tok string) {
	rdb.SetNX(ctx, key, tok, time.Second) // want `lock \*: read; delete checked`
	_ = rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != tok {
			return nil
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}

func rawRedigo(c redigo.Conn, key string) {
	c.Do("set", key, "x", "px", 100, "nx") // want `lock \*: expire; delete`
	c.Do("PEXPIRE", key, 100)
	c.Do("DEL", key)
}

func rueidisB(ctx context.Context, c rueidis.Client, key string) {
	c.Do(ctx, c.B().Set().Key(key).Value("v").Nx().Px(time.Second).Build()) // want `lock \*: delete`
	c.Do(ctx, c.B().Del().Key(key).Build())
}

func viaHelpers(ctx context.Context, name string) {
	locker.Lock(ctx, "job:"+name) // want `lock concat\("job:",\*\): delete via locker.Unlock`
	defer locker.Unlock(ctx, "job:"+name)
}

func cache(ctx context.Context) {
	rdb.Set(ctx, "cache:x", "v", time.Minute)
	rdb.Del(ctx, "cache:x")
}

// A parameter key normalised in place: later uses are "gate:" + name, so
// unlockGate's DEL joins the lock; unlockMaybe's (normalised only
// sometimes) stays unknown and joins nothing.
func lockGate(ctx context.Context, name, tok string) bool {
	return rdb.SetNX(ctx, "gate:"+name, tok, time.Minute).Val() // want `lock concat\("gate:",\*\): delete; delete via model.unlockGate$`
}

func unlockGate(ctx context.Context, name string) {
	name = "gate:" + name
	rdb.Del(ctx, name)
}

func gate(ctx context.Context, id, tok string) {
	if lockGate(ctx, id, tok) {
		defer unlockGate(ctx, id)
	}
}

// Normalised only sometimes: the key is unknown, so it joins nothing.
func unlockMaybe(ctx context.Context, name string, prefixed bool) {
	if !prefixed {
		name = "gate:" + name
	}
	rdb.Del(ctx, name)
}

func gateMaybe(ctx context.Context, id, tok string) {
	if lockGate(ctx, id, tok) { // unlockMaybe's DEL does not join the lock
		defer unlockMaybe(ctx, id, false)
	}
}

// Retry by recursion: the recursive call adds no operations, and a helper
// that takes and releases its own lock is not a release of the caller's.
func retryTake(ctx context.Context, key, tok string, n int) bool {
	if rdb.SetNX(ctx, "retry:"+key, tok, time.Minute).Val() { // want `lock concat\("retry:",\*\): delete$`
		defer rdb.Del(ctx, "retry:"+key)
		return true
	}
	if n == 0 {
		return false
	}
	return retryTake(ctx, key, tok, n-1)
}

// Two types embedding one base with its Key method name different keys:
// the cache's SET is not an op of the mutex's lock.
type base struct{ key string }

func (b base) Key() string { return "app:" + b.key }

type Mutex struct{ base }

type Cache struct{ base }

func (m *Mutex) TryLock(ctx context.Context, tok string) bool {
	return rdb.SetNX(ctx, m.Key(), tok, time.Minute).Val() // want `lock call\(\(model.base\).Key@model.Mutex,\*\): delete$`
}

func (m *Mutex) Unlock(ctx context.Context) { rdb.Del(ctx, m.Key()) }

func (c *Cache) Put(ctx context.Context, v string) { rdb.Set(ctx, c.Key(), v, time.Minute) }

// A handle whose Get starts a goroutine that releases the lock later:
// to its caller, Get acquires and (in the background) releases.
type Handle struct {
	key  string
	done chan struct{}
}

func (h *Handle) Get(ctx context.Context) bool {
	if !rdb.SetNX(ctx, h.key, "t", time.Minute).Val() { // want `lock field\(model.Handle.key\): delete; delete via model.Get$`
		return false
	}
	go func() {
		<-h.done
		rdb.Del(ctx, h.key)
	}()
	return true
}

func useHandle(ctx context.Context, h *Handle) {
	if h.Get(ctx) {
		close(h.done)
	}
}

// A lock taken with INCR through a client wrapper: the caller compares
// the count with 1.
func countedJob(ctx context.Context) {
	if n, _ := locker.Incr(ctx, "lock:count-job"); n > 1 { // want `lock "lock:count-job": delete via locker.Unlock`
		return
	}
	defer locker.Unlock(ctx, "lock:count-job")
}

// Near miss: a rate limit compares the count with its limit.
func limited(ctx context.Context) bool {
	n, _ := locker.Incr(ctx, "rate:limit-job")
	return n <= 10
}
