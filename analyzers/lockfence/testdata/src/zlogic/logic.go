// Package zlogic updates wallets through zmodel's generated model under a
// Redis lock.
package zlogic

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"zmodel"
)

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Logic struct {
	rdb     *redis.Client
	wallets zmodel.WalletModel
	ledger  zmodel.Ledger
}

func (l *Logic) Pay(ctx context.Context, id, amount int64) error {
	key := fmt.Sprintf("lock:wallet:%d", id)
	token := newToken()
	ok, err := l.rdb.SetNX(ctx, key, token, 2*time.Minute).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	w, err := l.wallets.FindOne(ctx, id)
	if err != nil {
		return err
	}
	w.Balance -= amount
	return l.wallets.Update(ctx, w) // want `l.wallets.Update \(database/sql DB.ExecContext at model.go:\d+\) under lock key \(SET NX\) carries no fencing token`
}

// Near miss: a ledger with two implementations; what Append does is not
// known here.
func (l *Logic) Record(ctx context.Context, id, amount int64) error {
	key := fmt.Sprintf("lock:ledger:%d", id)
	token := newToken()
	ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer unlock.Run(ctx, l.rdb, []string{key}, token)
	return l.ledger.Append(ctx, id, amount)
}

// newToken returns a random lock token.
func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
