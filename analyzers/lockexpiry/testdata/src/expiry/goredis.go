package expiry

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

const lockTTL = 30 * time.Second

func setnxThenExpire(ctx context.Context, id, token string) error {
	key := fmt.Sprintf("lock:%s", id)
	ok, err := rdb.SetNX(ctx, key, token, 0).Result() // want `lock key is acquired with SET NX and given its TTL by a separate EXPIRE: if the process dies between the two, the lock never expires.*safelock.Locker.TryAcquire`
	if err != nil || !ok {
		return err
	}
	rdb.Expire(ctx, key, lockTTL) // a comment that goes with the line
	defer rdb.Del(ctx, key)
	return nil
}

func pexpireErr(ctx context.Context, key, token string, ttl time.Duration) bool {
	if !rdb.SetNX(ctx, key, token, 0).Val() { // want `acquired with SET NX and given its TTL by a separate PEXPIRE`
		return false
	}
	rdb.PExpire(ctx, key, ttl).Err()
	return true
}

// The TTL is computed after the acquire: moving it would not compile, so
// no fix.
func lockTTLAfter(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, 0) // want `separate EXPIRE`
	ttl := 10 * time.Second
	rdb.Expire(ctx, key, ttl)
}

// Expire's error is handled: deleting it would change behaviour, so no fix.
func lockExpireChecked(ctx context.Context, key, token string) error {
	rdb.SetNX(ctx, key, token, 0) // want `separate EXPIRE`
	if err := rdb.Expire(ctx, key, time.Minute).Err(); err != nil {
		return err
	}
	return nil
}

func lockSetArgs(ctx context.Context, key, token string) {
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX"}) // want `acquired with SET NX and given its TTL by a separate EXPIRE`
	rdb.Expire(ctx, key, time.Minute)
}

func lockDoRaw(ctx context.Context, key, token string) {
	rdb.Do(ctx, "setnx", key, token) // want `acquired with SETNX and given its TTL by a separate PEXPIRE`
	rdb.Do(ctx, "pexpire", key, 30000)
}

func neverExpires(ctx context.Context) {
	if rdb.SetNX(ctx, "lock:report", "1", 0).Val() { // want `lock "lock:report" is acquired with SET NX without a TTL: if the holder dies before it releases, the lock is held forever`
		defer rdb.Del(ctx, "lock:report")
	}
}

// Negative: atomic in MULTI/EXEC.
func txPipelined(ctx context.Context, key, token string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, key, token, 0)
		p.Expire(ctx, key, time.Minute)
		return nil
	})
	rdb.Del(ctx, key)
}

func txPipeline(ctx context.Context, key, token string) {
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, key, token, 0)
	pipe.Expire(ctx, key, time.Minute)
	pipe.Exec(ctx)
	rdb.Del(ctx, key)
}

// Negative: TTL in the acquire.
func withTTL(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, lockTTL)
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: lockTTL})
	rdb.Del(ctx, key)
}

// Negative: a deduplication marker, never released.
func dedup(ctx context.Context, eventID string) bool {
	return rdb.SetNX(ctx, "seen:"+eventID, 1, 0).Val()
}

// Negative: rate limiter and sessions never use NX.
func rateLimit(ctx context.Context, user string) bool {
	n := rdb.Incr(ctx, "rl:"+user).Val()
	if n == 1 {
		rdb.Expire(ctx, "rl:"+user, time.Minute)
	}
	return n < 100
}

func touchSession(ctx context.Context, sid string) {
	rdb.Expire(ctx, "session:"+sid, time.Hour)
}

// Negative: the wrong code is commented out.
func fixed(ctx context.Context, key, token string) {
	// rdb.SetNX(ctx, key, token, 0)
	// rdb.Expire(ctx, key, lockTTL)
	rdb.SetNX(ctx, key, token, lockTTL)
	rdb.Del(ctx, key)
}

// Negative: TTL that may or may not be zero: we cannot tell.
func unknownTTL(ctx context.Context, key, token string, ttl time.Duration) {
	rdb.SetNX(ctx, key, token, ttl)
	rdb.Expire(ctx, key, time.Minute)
	rdb.Del(ctx, key)
}

// Negative: the TTL is set under a key expression we cannot match to the
// acquire; stay silent.
type job struct{ id string }

func (j job) lockKey() string { return "job:" + j.id }

func runJob(ctx context.Context, j job, token string) {
	if !rdb.SetNX(ctx, "job:"+j.id, token, 0).Val() {
		return
	}
	rdb.Expire(ctx, j.lockKey(), time.Minute)
	defer rdb.Del(ctx, "job:"+j.id)
}

// D2 is judged per acquire: the branch without a TTL holds the lock
// forever even though the other branch sets one.
func lockBranch(ctx context.Context, id, tok string, life time.Duration) bool {
	if life > 0 {
		return rdb.SetNX(ctx, "lock:branch:"+id, tok, life).Val()
	}
	return rdb.SetNX(ctx, "lock:branch:"+id, tok, 0).Val() // want `lock "lock:branch:" \+ id is acquired with SET NX without a TTL`
}

var casRelease = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// A compare-and-delete script read in full sets no TTL: it does not hide
// the missing one.
func unlockBranch(ctx context.Context, id, tok string) {
	casRelease.Run(ctx, rdb, []string{"lock:branch:" + id}, tok)
	rdb.Del(ctx, "lock:branch:"+id)
}

// Both branches set a TTL: nothing to report.
func lockBothTTL(ctx context.Context, id, tok string, life time.Duration) bool {
	if life > 0 {
		return rdb.SetNX(ctx, "lock:both:"+id, tok, life).Val()
	}
	return rdb.SetNX(ctx, "lock:both:"+id, tok, time.Minute).Val()
}

func unlockBoth(ctx context.Context, id string) { rdb.Del(ctx, "lock:both:"+id) }

var pexpireScript = redis.NewScript(`return redis.call("pexpire", KEYS[1], ARGV[1])`)

// A script that sets a TTL next to the release may be where the expiry
// is: stay silent.
func lockScriptTTL(ctx context.Context, id, tok string) bool {
	return rdb.SetNX(ctx, "lock:scripted:"+id, tok, 0).Val()
}

func unlockScriptTTL(ctx context.Context, id string) {
	pexpireScript.Run(ctx, rdb, []string{"other:" + id}, 1000)
	rdb.Del(ctx, "lock:scripted:"+id)
}
