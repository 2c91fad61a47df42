package release

import (
	"context"
	_ "embed"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

func deferDel(ctx context.Context, key, token string) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it: .*safelock.ReleaseKey`
}

func errAssigned(ctx context.Context, key, token string) error {
	rdb.SetNX(ctx, key, token, time.Minute)
	err := rdb.Del(ctx, key).Err() // want `deleted with DEL without checking`
	return err
}

func ifInit(ctx context.Context, key, token string) error {
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: time.Minute})
	if err := rdb.Unlink(ctx, key).Err(); err != nil { // want `deleted with UNLINK without checking`
		return err
	}
	return nil
}

// Result() returns a count; ReleaseKey returns a bool: no fix.
func resultShape(ctx context.Context, key, token string) (int64, error) {
	rdb.SetNX(ctx, key, token, time.Minute)
	return rdb.Del(ctx, key).Result() // want `deleted with DEL without checking`
}

func inGoroutine(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute)
	go func() {
		rdb.Del(ctx, key) // want `deleted with DEL without checking`
	}()
}

// A constant token is no token: report, but no fix.
func constToken(ctx context.Context) {
	rdb.SetNX(ctx, "lock:cron", "1", time.Minute)
	rdb.Del(ctx, "lock:cron") // want `lock "lock:cron" is deleted with DEL without checking`
}

func getCompareDel(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute)
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key) // want `lock key is read with GET and then deleted with a separate DEL: the lock can expire and pass to another holder between the two round trips`
	}
}

// Acquire and release in different HTTP handlers, keys built alike.
func handleStart(ctx context.Context, id, token string) error {
	if !rdb.SetNX(ctx, "export:"+id, token, time.Hour).Val() {
		return errors.New("busy")
	}
	return nil
}

func handleDone(ctx context.Context, id string) {
	rdb.Del(ctx, "export:"+id) // want `lock "export:" \+ id is deleted with DEL without checking`
}

var blindUnlock = redis.NewScript(`return redis.call("DEL", KEYS[1])`)

func blindScript(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute)
	blindUnlock.Run(ctx, rdb, []string{key}, token) // want `the Lua script deletes lock key without comparing its value with the holder's token.*safelock.ReleaseScript`
}

// Negatives.

//go:embed release.lua
var releaseLua string

var release = redis.NewScript(releaseLua)

const releaseSrc = `
local v = redis.call("get", KEYS[1])
if v == ARGV[1] then
	return redis.call("del", KEYS[1])
end
return 0`

func compareAndDelete(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute)
	release.Run(ctx, rdb, []string{key}, token)
	rdb.Eval(ctx, releaseSrc, []string{key}, token)
}

func delex(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute)
	rdb.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token})
}

func watchTx(ctx context.Context, key, token string) error {
	rdb.SetNX(ctx, key, token, time.Minute)
	txf := func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return errors.New("not owner")
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key)
			return nil
		})
		return err
	}
	return rdb.Watch(ctx, txf, key)
}

// Watch with no keys sends no WATCH: the GET, the compare and the MULTI
// DEL are three steps another holder can slip between.
func watchNoKeys(ctx context.Context, key, token string) error {
	rdb.SetNX(ctx, key, token, time.Minute)
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return errors.New("not owner")
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key) // want `lock key is read with GET and then deleted with a separate DEL`
			return nil
		})
		return err
	})
}

func cacheInvalidate(ctx context.Context, id string) {
	rdb.Set(ctx, "user:"+id, "{}", time.Hour)
	rdb.Del(ctx, "user:"+id)
}

func sessionLogout(ctx context.Context, sid string) {
	rdb.Expire(ctx, "session:"+sid, time.Hour)
	rdb.Del(ctx, "session:"+sid)
}

// The wrong code is commented out.
func fixedRelease(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute)
	// rdb.Del(ctx, key)
	release.Run(ctx, rdb, []string{key}, token)
}

// A helper that deletes a lock key is reported once, at the helper, not
// at each of its callers.
const leaderKey = "leader"

func elect(ctx context.Context, token string) bool {
	return rdb.SetNX(ctx, leaderKey, token, time.Minute).Val()
}

func resign(ctx context.Context) {
	rdb.Del(ctx, leaderKey) // want `lock leaderKey is deleted with DEL without checking`
}

func shutdown(ctx context.Context) { resign(ctx) }

func onError(ctx context.Context) { resign(ctx) }

// Negative: a one-time code consumed with GETDEL is not a lock release.
func otp(ctx context.Context, user, code string) bool {
	rdb.SetNX(ctx, "otp:"+user, code, 5*time.Minute)
	return rdb.GetDel(ctx, "otp:"+user).Val() == code
}

// GET, compare in Go, then GETDEL: the owner check and the delete are
// two round trips, as with DEL.
func getCompareGetDel(ctx context.Context, id, token string) bool {
	if !rdb.SetNX(ctx, "lock:gd:"+id, token, time.Minute).Val() {
		return false
	}
	if rdb.Get(ctx, "lock:gd:"+id).Val() != token {
		return false
	}
	return rdb.GetDel(ctx, "lock:gd:"+id).Err() == nil // want `lock "lock:gd:" \+ id is read with GET and then deleted with a separate GETDEL`
}

// A helper that makes the token and returns it: the token has a name at
// the caller, so the release can be fixed there.
func acquireToken(ctx context.Context, key string) (string, bool) {
	token := newToken()
	ok := rdb.SetNX(ctx, key, token, time.Minute).Val()
	return token, ok
}

func newToken() string { return "random" }

func useToken(ctx context.Context) {
	tok, ok := acquireToken(ctx, "report:daily")
	if !ok {
		return
	}
	defer rdb.Del(ctx, "report:daily") // want `lock "report:daily" is deleted with DEL without checking`
}
