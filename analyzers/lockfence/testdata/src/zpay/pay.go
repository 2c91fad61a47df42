// Package zpay pays from a wallet under a Redis lock, through zwallet's
// model inside its transaction.
package zpay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/zeromicro/go-zero/core/stores/sqlx"

	"zwallet"
)

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Logic struct {
	rdb     *redis.Client
	wallets zwallet.WalletModel
}

var errNotEnough = errors.New("not enough")

// The wallet row is locked FOR UPDATE in the transaction the writes use,
// also the log written on the path where no wallet was found: the
// database serialises a stale holder behind the newer one.
func (l *Logic) Pay(ctx context.Context, uid, amount int64) error {
	key := "lock:wallet"
	token := newToken()
	if ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result(); err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	return l.wallets.Trans(ctx, func(ctx context.Context, session sqlx.Session) error {
		w, err := l.wallets.FindOneForUpdate(ctx, session, uid)
		if err == sqlx.ErrNotFound {
			_ = l.wallets.InsertLog(ctx, session, uid, "no wallet")
			return err
		} else if err != nil {
			return err
		}
		before := balanceOf(w)
		if before < amount {
			_ = l.wallets.InsertLog(ctx, session, uid, "not enough")
			return errNotEnough
		}
		return l.wallets.UpdateBalance(ctx, session, uid, before-amount)
	})
}

// Near miss: read without a row lock; nothing serialises the write.
func (l *Logic) PayUnlocked(ctx context.Context, uid, amount int64) error {
	key := "lock:wallet2"
	token := newToken()
	if ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result(); err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	return l.wallets.Trans(ctx, func(ctx context.Context, session sqlx.Session) error {
		w, err := l.wallets.FindOne(ctx, session, uid)
		if err != nil {
			return err
		}
		return l.wallets.UpdateBalance(ctx, session, uid, w.Balance-amount) // want `l.wallets.UpdateBalance \(github.com/zeromicro/go-zero/core/stores/sqlx Session.ExecCtx at model.go:\d+\) under lock key \(SET NX\) carries no fencing token`
	})
}

func (l *Logic) Direct(ctx context.Context, s sqlx.Session, uid, amount int64) error {
	key := "lock:wallet3"
	token := newToken()
	ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	return l.wallets.UpdateBalance(ctx, s, uid, amount) // want `l.wallets.UpdateBalance .* under lock key \(SET NX\) carries no fencing token`
}

// newToken returns a random lock token.
func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Near misses for the rolled-back write: a log row followed by a nil
// return commits; one followed by an error outside any transaction lands.
func (l *Logic) Note(ctx context.Context, s sqlx.Session, uid int64) error {
	key := "lock:wallet5"
	token := newToken()
	ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	return l.wallets.Trans(ctx, func(ctx context.Context, session sqlx.Session) error {
		_ = l.wallets.InsertLog(ctx, session, uid, "noted") // want `l.wallets.InsertLog .* under lock key \(SET NX\) carries no fencing token`
		return nil
	})
}

func (l *Logic) Fail(ctx context.Context, s sqlx.Session, uid int64) error {
	key := "lock:wallet6"
	token := newToken()
	ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	_ = l.wallets.InsertLog(ctx, s, uid, "failed") // want `l.wallets.InsertLog .* under lock key \(SET NX\) carries no fencing token`
	return errNotEnough
}

func balanceOf(w *zwallet.Wallet) int64 { return w.Balance }

// Near misses: the write's own error is what the callback returns, so a
// successful write commits.
func (l *Logic) Own(ctx context.Context, uid int64) error {
	key := "lock:wallet7"
	token := newToken()
	ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	return l.wallets.Trans(ctx, func(ctx context.Context, session sqlx.Session) error {
		if err := l.wallets.InsertLog(ctx, session, uid, "own"); err != nil { // want `l.wallets.InsertLog .* under lock key \(SET NX\) carries no fencing token`
			return err
		}
		return errNotEnough
	})
}

func (l *Logic) OwnReturned(ctx context.Context, uid int64) error {
	key := "lock:wallet8"
	token := newToken()
	ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	return l.wallets.Trans(ctx, func(ctx context.Context, session sqlx.Session) error {
		err := l.wallets.InsertLog(ctx, session, uid, "own") // want `l.wallets.InsertLog .* under lock key \(SET NX\) carries no fencing token`
		return err
	})
}
