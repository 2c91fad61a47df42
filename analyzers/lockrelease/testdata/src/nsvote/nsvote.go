// Package nsvote takes nslock's locks through wrappers of its own, and
// on a failed acquire releases the lock anyway: with nslock's plain DEL
// that deletes the lock another voter holds.
package nsvote

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"nslock"
)

var errBusy = errors.New("status is locked")

func lockStatus(id string) error {
	ok, err := nslock.Lock("status:"+id, 5*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func unlockStatus(id string) error { return nslock.Unlock("status:" + id) }

func vote(ids []string, write func(string)) {
	for _, id := range ids {
		if err := lockStatus(id); err != nil {
			unlockStatus(id) // want `on the path where acquiring it failed`
			continue
		}
		write(id)
		unlockStatus(id)
	}
}

// Near miss: the release runs only on the path that holds the lock.
func voteHeld(ids []string, write func(string)) {
	for _, id := range ids {
		if err := lockStatus(id); err == nil {
			write(id)
			unlockStatus(id)
		}
	}
}

// The same with the commands in this function: the DEL on the refused
// path is reported once, for what it does there.
func claim(ctx context.Context, rdb *redis.Client, key, token string, work func()) {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		rdb.Del(ctx, key) // want `on the path where acquiring it failed`
		return
	}
	defer release(ctx, rdb, key, token)
	work()
}

var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Near miss: a compare-and-delete on the refused path deletes nothing
// that is not this caller's.
func claimChecked(ctx context.Context, rdb *redis.Client, key, token string, work func()) {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		release(ctx, rdb, key, token)
		return
	}
	defer release(ctx, rdb, key, token)
	work()
}

func release(ctx context.Context, rdb *redis.Client, key, token string) {
	releaseScript.Run(ctx, rdb, []string{key}, token)
}

// The release after an if without an else runs on both paths: when the
// lock was not taken, it deletes the holder's.
func recoverStuck(ids []string, requeue func(string)) {
	for _, id := range ids {
		if ok, _ := nslock.Lock("task:"+id, time.Minute); ok {
			requeue(id)
		}
		nslock.Unlock("task:" + id) // want `on the path where acquiring it failed`
	}
}

// Near miss: the release stays inside the branch that holds the lock.
func recoverHeld(ids []string, requeue func(string)) {
	for _, id := range ids {
		if ok, _ := nslock.Lock("job:"+id, time.Minute); ok {
			requeue(id)
			nslock.Unlock("job:" + id)
		}
	}
}

// Near miss for this rule: the branch that holds the lock leaves, so the
// code after it runs only when the acquire failed; a release and work
// there read the outcome backwards, which is not a stray release.
func inverted(id string, work func()) {
	if ok, _ := nslock.Lock("cron:"+id, time.Hour); ok {
		return
	}
	defer nslock.Unlock("cron:" + id)
	work()
}

// Near miss: a forced takeover breaks the holder's lock on purpose when
// its own attempt is refused.
func forceTakeover(id string, work func()) {
	if ok, _ := nslock.Lock("admin:"+id, time.Minute); !ok {
		nslock.Unlock("admin:" + id)
		return
	}
	work()
}

// Near miss: when a later key is refused, the keys taken before it are
// given back. They are this caller's; the refused key is left alone.
func lockAll(ids []string) error {
	var held []string
	for _, id := range ids {
		if err := lockStatus(id); err != nil {
			for _, h := range held {
				unlockStatus(h)
			}
			return err
		}
		held = append(held, id)
	}
	return nil
}
