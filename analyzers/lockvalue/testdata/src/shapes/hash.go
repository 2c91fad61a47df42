package shapes

import (
	"context"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

// A Redisson-style reentrant lock: the owner is the hash field. Nothing
// in the package sets owner, so every holder is "".
var reentrant = goredis.NewScript(`
if (redis.call("EXISTS", KEYS[1]) == 0) then
    redis.call("HINCRBY", KEYS[1], ARGV[2], 1)
    redis.call("PEXPIRE", KEYS[1], ARGV[1])
    return 1
end
if (redis.call("HEXISTS", KEYS[1], ARGV[2]) == 1) then
    redis.call("HINCRBY", KEYS[1], ARGV[2], 1)
    return 1
end
return 0`)

var reentrantRelease = goredis.NewScript(`
if (redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0) then return 0 end
if redis.call("HINCRBY", KEYS[1], ARGV[1], -1) > 0 then return 1 end
return redis.call("DEL", KEYS[1])`)

type Reentrant struct {
	name  string
	owner string
}

func (r *Reentrant) Lock(ctx context.Context) bool {
	keys := []string{r.name}
	n, _ := reentrant.Run(ctx, rdb, keys, (30 * time.Second).Milliseconds(), r.owner).Int() // want `lock r.name stores the constant "" \(field owner is never set\) as its value`
	return n == 1
}

func (r *Reentrant) Unlock(ctx context.Context) {
	reentrantRelease.Run(ctx, rdb, []string{r.name}, r.owner)
}

// Seeded sets its owner in its constructor: unique per holder.
type Seeded struct {
	name  string
	owner string
}

func NewSeeded(name, owner string) *Seeded { return &Seeded{name: name, owner: owner} } // want NewSeeded:`lock value from parameters \[1\]`

func (r *Seeded) Lock(ctx context.Context) bool {
	n, _ := reentrant.Run(ctx, rdb, []string{r.name}, (30 * time.Second).Milliseconds(), r.owner).Int()
	return n == 1
}

func (r *Seeded) Unlock(ctx context.Context) {
	reentrantRelease.Run(ctx, rdb, []string{r.name}, r.owner)
}

// NamedLock stores its own name, the part its key is made of.
type NamedLock struct {
	Name    string
	TimeOut int64
}

func (p NamedLock) Lock(conn redis.Conn) bool {
	ok, _ := redis.String(conn.Do("SET", p.key(), p.Name, "PX", p.TimeOut, "NX")) // want `lock p.key\(\) stores part of the lock key as its value`
	return ok == "OK"
}

func (p NamedLock) Unlock(conn redis.Conn) {
	_, _ = conn.Do("DEL", p.key())
}

func (p NamedLock) key() string { return fmt.Sprintf("__lock_%s__", p.Name) }

// TokenLock's key method uses Name, but it stores Token.
type TokenLock struct {
	Name  string
	Token string
}

func (p TokenLock) Lock(conn redis.Conn) bool {
	ok, _ := redis.String(conn.Do("SET", p.key(), p.Token, "PX", 3000, "NX"))
	return ok == "OK"
}

func (p TokenLock) Unlock(conn redis.Conn) {
	_, _ = conn.Do("DEL", p.key())
}

func (p TokenLock) key() string { return "lock:" + p.Name }
