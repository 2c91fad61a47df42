package fence

import (
	"context"
	"time"

	"kvstore"
)

var kv *kvstore.Store

// A SET without expiry through another package's wrapper is a write of
// record under the lock.
func creditWallet(ctx context.Context, id string, amount int) error {
	lock, err := rl.Obtain(ctx, "wallet:"+id+":lock", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return kv.Put(ctx, "wallet:"+id, amount) // want `kv.Put \(Redis SET at kvstore.go:\d+\) under lock "wallet:" \+ id \+ ":lock" \(redislock Client.Obtain\) carries no fencing token`
}

// Near miss: a value kept with a TTL through a wrapper is taken for a
// cache.
func cacheWallet(ctx context.Context, id string, amount int) error {
	lock, err := rl.Obtain(ctx, "wallet:"+id+":lock", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return kv.PutFor(ctx, "wallet:"+id, amount, time.Minute)
}

var (
	games    *kvstore.GameStateStorage
	sessions *kvstore.SessionStore
)

// A store that makes its own key keeps state, with a TTL or not.
func playRound(ctx context.Context, room string) error {
	lock, err := rl.Obtain(ctx, "game:"+room+":play", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	st := &kvstore.GameState{RoomID: room, Round: 2}
	return games.Save(ctx, st, 2*time.Hour) // want `games.Save \(Redis SET at kvstore.go:\d+\) under lock "game:" \+ room \+ ":play" \(redislock Client.Obtain\) carries no fencing token`
}

// Near miss: a session store is named as what a lock does not protect.
func touchSession(ctx context.Context, user string) error {
	lock, err := rl.Obtain(ctx, "user:"+user+":lock", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return sessions.Touch(ctx, user, time.Hour)
}

var mfa *kvstore.MfaRepository

// Near miss: a one-time code stored under the sign-in lock.
func signIn(ctx context.Context, email string) error {
	lock, err := rl.Obtain(ctx, "auth:"+email, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	mfa.SetMfaOtpByEmail(ctx, email, "123456")
	return nil
}
