// Package payouts pays withdrawals under a Redis lock; the writes are in
// package repo, reached through a transaction's callback.
package payouts

import (
	"context"
	"database/sql"
	"errors"
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

var db *sql.DB

// The refusal is tested after a transaction began, which reuses err: the
// status write in the refusal branch runs without the lock and is not
// the section's; the balance write is.
func (h *handler) debit(ctx context.Context, id, token string) error {
	key := "account:lock:" + id
	locked, err := rdb.SetNX(ctx, key, token, 20*time.Second).Result()
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Commit()
	if !locked {
		tx.ExecContext(ctx, "UPDATE orders SET status = 'retrying' WHERE id = ?", id)
		return errors.New("account is busy")
	}
	defer rdb.Del(ctx, key)
	_, err = tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - 1 WHERE id = ?", id) // want `database/sql Tx.ExecContext under lock key \(SET NX\) carries no fencing token`
	return err
}

// Near miss: ok is assigned again, so the later !ok tests the check, not
// the lock, and the write in its branch is under the lock.
func (h *handler) reject(ctx context.Context, id, token string) error {
	key := "order:lock:" + id
	ok, err := rdb.SetNX(ctx, key, token, 20*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	ok, err = allowed(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		_, err = db.ExecContext(ctx, "UPDATE orders SET status = 'rejected' WHERE id = ?", id) // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token`
		return err
	}
	return nil
}

func allowed(ctx context.Context, id string) (bool, error) { return id != "", ctx.Err() }
