// Package payouts pays withdrawals under a Redis lock; the writes are in
// package repo, reached through a transaction's callback.
package payouts

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"payouts/repo"
)

var rdb = redis.NewClient(&redis.Options{})

type handler struct{}

// The unexported helper runs only under this lock: the report is at its
// call into the repository, the line to change.
func (h *handler) payOne(ctx context.Context, id, token string) error {
	key := "withdraw:lock:" + id
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	return h.send(ctx, id)
}

func (h *handler) send(ctx context.Context, id string) error {
	return repo.WithTx(ctx, func(r *repo.Repo) error {
		hash := "0x" + id
		return r.SaveWithdrawal(ctx, id, hash) // want `r.SaveWithdrawal \(database/sql Tx.ExecContext at repo.go:\d+\) under lock key \(SET NX\) carries no fencing token`
	})
}

// Near miss for the position: a helper called from two places is shared
// code, so the report stays at the call under the lock.
func (h *handler) retryOne(ctx context.Context, id, token string) error {
	key := "retry:lock:" + id
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	return h.resend(ctx, id) // want `h.resend \(database/sql Tx.ExecContext at repo.go:\d+\) under lock key \(SET NX\)`
}

func (h *handler) resend(ctx context.Context, id string) error {
	return repo.WithTx(ctx, func(r *repo.Repo) error { return r.SaveWithdrawal(ctx, id, "again") })
}

func (h *handler) resendAll(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if err := h.resend(ctx, id); err != nil {
			return err
		}
	}
	return nil
}
