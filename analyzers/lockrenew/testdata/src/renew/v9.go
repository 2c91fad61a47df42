package renew

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

const ttl = 10 * time.Second

var errLost = errors.New("lock lost")

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// The lock is extended in a loop while the work goes on.
func work(ctx context.Context, key string, items []string) error {
	token := newToken()
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	for range items {
		rdb.Expire(ctx, key, ttl) // want `lock key is renewed with EXPIRE without checking that this holder still owns it: if the lock expired and another process took it, this extends their lock.*safelock.RenewKey\(ctx, rdb, key, token, ttl\) or Lease.Renew`
	}
	return nil
}

// A watchdog goroutine.
func withWatchdog(ctx context.Context, id string) {
	token := newToken()
	if !rdb.SetNX(ctx, "lock:"+id, token, ttl).Val() {
		return
	}
	go func() {
		t := time.NewTicker(ttl / 3)
		defer t.Stop()
		for range t.C {
			if err := rdb.PExpire(ctx, "lock:"+id, ttl).Err(); err != nil { // want `lock "lock:" \+ id is renewed with PEXPIRE without checking`
				return
			}
		}
	}()
}

// Result() keeps its (bool, error) shape.
func extendLockResult(ctx context.Context, key string) (bool, error) {
	token := newToken()
	if err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err(); err != nil {
		return false, err
	}
	var ok bool
	var err error
	for i := 0; i < 3; i++ {
		ok, err = rdb.Expire(ctx, key, ttl).Result() // want `renewed with EXPIRE without checking`
	}
	return ok, err
}

// GET, compare, then EXPIRE: two round trips. No fix: the check is the
// caller's own logic.
func getThenExpire(ctx context.Context, key, token string) error {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	go func() {
		if rdb.Get(ctx, key).Val() != token {
			return
		}
		rdb.PExpire(ctx, key, ttl) // want `lock key is read with GET and then renewed with a separate PEXPIRE: the lock can expire and pass to another process between the two round trips`
	}()
	return nil
}

// Val() has no (bool, error) counterpart: reported, no fix.
func extendVal(ctx context.Context, key string) bool {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	for {
		if !rdb.Expire(ctx, key, ttl).Val() { // want `renewed with EXPIRE without checking`
			return false
		}
	}
}

// A renewal queued in a plain pipeline: not atomic with any check, no fix.
func pipelined(ctx context.Context, key string) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	go rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Expire(ctx, key, ttl) // want `renewed with EXPIRE without checking`
		return nil
	})
}

// The token is a constant: lockvalue's business; the renewal is reported
// but gets no fix, since "comparing" with a constant proves nothing.
func constantToken(ctx context.Context) {
	if !rdb.SetNX(ctx, "lock:report", "1", ttl).Val() {
		panic("lock busy")
	}
	go rdb.Expire(ctx, "lock:report", ttl) // want `lock "lock:report" is renewed with EXPIRE`
}

// A one-off extension in a goroutine.
func extendInBackground(ctx context.Context, key string) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	go rdb.PExpire(ctx, key, 2*ttl) // want `lock key is renewed with PEXPIRE without checking`
}

// A script that extends without comparing.
func scriptRenew(ctx context.Context, key string) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	go rdb.Eval(ctx, `return redis.call("PEXPIRE", KEYS[1], ARGV[1])`, []string{key}, 10000) // want `the Lua script renews lock key without comparing its value with the holder's token.*safelock.RenewScript`
}

// Negatives.

var renewScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`)

func compareAndExpire(ctx context.Context, key string) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	go func() {
		for {
			renewScript.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds())
		}
	}()
}

func setIfEq(ctx context.Context, key string) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	for {
		rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, TTL: ttl})
	}
}

func watchCompare(ctx context.Context, key string) error {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	for {
		err := rdb.Watch(ctx, func(tx *redis.Tx) error {
			if tx.Get(ctx, key).Val() != token {
				return errLost
			}
			_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.PExpire(ctx, key, ttl)
				return nil
			})
			return err
		}, key)
		if err != nil {
			return err
		}
	}
}

func session(ctx context.Context, sid string) {
	rdb.Expire(ctx, "session:"+sid, time.Hour)
}

func rateLimit(ctx context.Context, user string) bool {
	n := rdb.Incr(ctx, "rl:"+user).Val()
	if n == 1 {
		rdb.Expire(ctx, "rl:"+user, time.Minute)
	}
	return n < 100
}

// SETNX then EXPIRE: lockexpiry reports it; it is no renewal.
func setnxThenExpire(ctx context.Context, key string) {
	token := newToken()
	if rdb.SetNX(ctx, key, token, 0).Val() {
		rdb.Expire(ctx, key, ttl)
		defer rdb.Del(ctx, key)
	}
}

// A lock found without a TTL gets one: repair, not a renewal.
func repair(ctx context.Context, key string) bool {
	token := newToken()
	if rdb.SetNX(ctx, key, token, ttl).Val() {
		return true
	}
	rdb.ExpireAt(ctx, key, time.Now().Add(ttl))
	return false
}

// Acquire-or-renew, as a leader election runs it each tick: the NX
// failed, the GET says the holder is this replica, so it extends its own
// lease in a separate round trip.
func acquireOrRenew(ctx context.Context, id string) bool {
	if rdb.SetNX(ctx, "leader", id, ttl).Val() {
		return true
	}
	if rdb.Get(ctx, "leader").Val() != id {
		return false
	}
	rdb.Expire(ctx, "leader", ttl) // want `lock "leader" is read with GET and then renewed with a separate EXPIRE`
	return true
}

// GET first, as a leader election's tick: a missing key is taken with SET
// NX; a key that holds this replica's id is extended in a separate round
// trip. The EXPIRE runs on paths that never took the lock in this call:
// it renews a lease taken on an earlier tick.
func getFirstAcquireOrRenew(ctx context.Context, id string) bool {
	v, err := rdb.Get(ctx, "leader:get-first").Result()
	if errors.Is(err, redis.Nil) {
		if rdb.SetNX(ctx, "leader:get-first", id, ttl).Val() {
			return true
		}
	} else if err != nil {
		return false
	}
	if v == id {
		rdb.Expire(ctx, "leader:get-first", ttl) // want `lock "leader:get-first" is read with GET and then renewed with a separate EXPIRE`
		return true
	}
	return false
}

// Near miss: a GET first to see that the key is free, then SETNX and its
// EXPIRE. Every path to the EXPIRE took the lock: lockexpiry's SETNX then
// EXPIRE, no renewal.
func getFirstThenSetup(ctx context.Context, id string) bool {
	if rdb.Get(ctx, "leader:check-first").Val() != "" {
		return false
	}
	if !rdb.SetNX(ctx, "leader:check-first", id, 0).Val() {
		return false
	}
	rdb.Expire(ctx, "leader:check-first", ttl)
	return true
}

// The takeover of an expired timestamp lock: NX failed, the GET read an
// old deadline, GETSET wrote a new one and its old value proves the
// takeover; the EXPIRE gives the taken lock its TTL, no renewal.
func takeOver(ctx context.Context, deadline int64) bool {
	if rdb.SetNX(ctx, "cron-tick", deadline, ttl).Val() {
		return true
	}
	old, _ := strconv.ParseInt(rdb.Get(ctx, "cron-tick").Val(), 10, 64)
	if old > time.Now().UnixNano() {
		return false
	}
	prev, _ := strconv.ParseInt(rdb.GetSet(ctx, "cron-tick", deadline).Val(), 10, 64)
	if prev > time.Now().UnixNano() {
		return false
	}
	rdb.Expire(ctx, "cron-tick", ttl)
	return true
}

// The wrong code is commented out.
func fixed(ctx context.Context, key string) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	for {
		// rdb.Expire(ctx, key, ttl)
		renewScript.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds())
	}
}

// A cache filled with SETNX whose result nobody reads, with a sliding
// expiry on every read: no lock.
func cacheFill(ctx context.Context, id, data string) {
	rdb.SetNX(ctx, "cache:"+id, data, time.Hour)
}

func cacheGet(ctx context.Context, id string) string {
	v := rdb.Get(ctx, "cache:"+id).Val()
	rdb.Expire(ctx, "cache:"+id, time.Hour)
	return v
}

// A leader's tick in a loop that acquires while it is not the leader and
// extends otherwise, with no GET first: the EXPIRE skips the acquire, so
// it extends the lease an earlier round took.
func leaderLoop(ctx context.Context, id string) {
	leader := false
	for range time.Tick(time.Second) {
		if !leader {
			leader = rdb.SetNX(ctx, "leader:loop", id, ttl).Val()
		} else {
			rdb.PExpire(ctx, "leader:loop", ttl) // want `lock "leader:loop" is renewed with PEXPIRE without checking that this holder still owns it`
		}
	}
}

// Near miss: a retry loop whose EXPIRE follows its own SETNX in every
// round (lockexpiry's SETNX then EXPIRE): it sets the lock up.
func retrySetup(ctx context.Context, id string) bool {
	for i := 0; i < 3; i++ {
		if rdb.SetNX(ctx, "retry:setup", id, 0).Val() {
			rdb.Expire(ctx, "retry:setup", ttl)
			return true
		}
	}
	return false
}
