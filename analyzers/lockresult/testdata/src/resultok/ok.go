// Package resultok checks acquire results correctly: nothing is reported.
package resultok

import (
	"context"
	"errors"
	"log"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var rdb = redis.NewClient(&redis.Options{})

var ErrBusy = errors.New("busy")

func process() {}

func returns(ctx context.Context, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

func combined(ctx context.Context, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return ErrBusy
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

// An error also gives false, so checking ok alone is enough.
func okOnly(ctx context.Context, key, token string) {
	ok, _ := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if !ok {
		return
	}
	defer rdb.Del(ctx, key)
	process()
}

func val(ctx context.Context, key, token string) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, key)
	process()
}

func valPositive(ctx context.Context, key, token string) {
	if rdb.SetNX(ctx, key, token, time.Minute).Val() {
		defer rdb.Del(ctx, key)
		process()
	}
}

func switchCases(ctx context.Context, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	switch {
	case err != nil:
		return err
	case !ok:
		return ErrBusy
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

func switchTag(ctx context.Context, key, token string) {
	ok, _ := rdb.SetNX(ctx, key, token, time.Minute).Result()
	switch ok {
	case false:
		log.Println("busy")
		return
	}
	defer rdb.Del(ctx, key)
	process()
}

func retry(ctx context.Context, key, token string) error {
	for {
		ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
		if err != nil {
			return err
		}
		if ok {
			break
		}
		log.Println("waiting")
		time.Sleep(100 * time.Millisecond)
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

func retryFlag(ctx context.Context, key, token string) {
	acquired := false
	for i := 0; i < 3 && !acquired; i++ {
		acquired = rdb.SetNX(ctx, key, token, time.Minute).Val()
	}
	if !acquired {
		return
	}
	defer rdb.Del(ctx, key)
	process()
}

func fatal(ctx context.Context, key, token string) {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		log.Fatal(err)
	}
	if !ok {
		panic("busy")
	}
	defer rdb.Del(ctx, key)
	process()
}

func elseBranch(ctx context.Context, key, token string) {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err == nil && ok {
		defer rdb.Del(ctx, key)
		process()
	} else {
		log.Println("busy", err)
	}
}

// A flag set on failure gates what follows.
func flag(ctx context.Context, key, token string) error {
	var lockErr error
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		lockErr = ErrBusy
	}
	if lockErr != nil {
		return lockErr
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

func loopContinue(ctx context.Context, keys []string, token string) {
	for _, key := range keys {
		ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
		if err != nil || !ok {
			continue
		}
		process()
		rdb.Del(ctx, key)
	}
}

// The wrapper hands the outcome to its caller.
type Lock struct {
	rdb *redis.Client
	key string
}

func (l *Lock) TryLock(ctx context.Context, token string) (bool, error) { // want TryLock:"returns the outcome of SetNX at ok.go:177"
	return l.rdb.SetNX(ctx, l.key, token, time.Minute).Result()
}

func (l *Lock) Unlock(ctx context.Context) error { return l.rdb.Del(ctx, l.key).Err() }

// Do and SetArgs report a held lock as redis.Nil: the error is enough.
func doErr(ctx context.Context, key, token string) error {
	if err := rdb.Do(ctx, "set", key, token, "nx", "px", 30000).Err(); err != nil {
		return err
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

func setArgsErr(ctx context.Context, key, token string) error {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
	if err == redis.Nil {
		return ErrBusy
	}
	if err != nil {
		return err
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

// A set-once marker, not a lock: nothing releases it, its name says
// nothing about locks.
func markSeen(ctx context.Context, id string) {
	rdb.SetNX(ctx, "seen:"+id, 1, 24*time.Hour)
}

func redigoOK(conn redigo.Conn, key, token string) error {
	_, err := redigo.String(conn.Do("SET", key, token, "NX", "PX", 30000))
	if err == redigo.ErrNil {
		return ErrBusy
	}
	if err != nil {
		return err
	}
	defer conn.Do("DEL", key)
	process()
	return nil
}

func redigoReply(conn redigo.Conn, key, token string) error {
	reply, err := conn.Do("SET", key, token, "NX", "PX", 30000)
	if err != nil {
		return err
	}
	if reply == nil {
		return ErrBusy
	}
	defer conn.Do("DEL", key)
	process()
	return nil
}

func redigoBool(conn redigo.Conn, key, token string) error {
	ok, err := redigo.Bool(conn.Do("SETNX", key, token))
	if err != nil || !ok {
		return ErrBusy
	}
	defer conn.Do("DEL", key)
	process()
	return nil
}

func rueidisOK(ctx context.Context, c rueidis.Client, key, token string) error {
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build()).Error(); err != nil {
		return err
	}
	defer c.Do(ctx, c.B().Del().Key(key).Build())
	process()
	return nil
}

// Set-once values, not locks: a cache filled with SETNX and a sliding
// expiry, a feature flag cleared elsewhere, a one-time code read back
// with GETDEL.
func cacheFill(ctx context.Context, id, data string) {
	rdb.SetNX(ctx, "cache:"+id, data, time.Hour)
}

func cacheGet(ctx context.Context, id string) string {
	v := rdb.Get(ctx, "cache:"+id).Val()
	rdb.Expire(ctx, "cache:"+id, time.Hour)
	return v
}

func flagOn(ctx context.Context, name string) {
	rdb.SetNX(ctx, "flag:"+name, "1", 0)
}

func flagOff(ctx context.Context, name string) {
	rdb.Del(ctx, "flag:"+name)
}

func otp(ctx context.Context, user, code string) bool {
	rdb.SetNX(ctx, "otp:"+user, code, 5*time.Minute)
	return rdb.GetDel(ctx, "otp:"+user).Val() == code
}

// A lock left without a TTL is repaired when the acquire fails: the
// EXPIRE on the failure path is deliberate.
func repair(ctx context.Context, key, token string) bool {
	if rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return true
	}
	rdb.Expire(ctx, key, time.Minute)
	return false
}
