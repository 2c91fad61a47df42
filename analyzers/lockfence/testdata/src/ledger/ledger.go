// Package ledger credits wallets under a Redis lock; the balance UPDATE
// is versioned in package repo.
package ledger

import (
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"ledger/repo"
)

var (
	rdb = redis.NewClient(&redis.Options{})
	db  *sql.DB
	r   = &repo.Repo{}
)

// The ledger entry is written only after the versioned UPDATE changed the
// wallet: UpdateBalance refuses a stale version with an error, so a late
// holder stops there.
func credit(ctx context.Context, id string, balance, version, amount int64) error {
	key := "wallet:lock:" + id
	ok, err := rdb.SetNX(ctx, key, uuid.NewString(), 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := r.UpdateBalance(ctx, tx, id, balance+amount, version); err != nil {
		return err
	}
	if err := r.AddEntry(ctx, tx, id, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// Near miss: SetBalance answers a stale version with success, so the
// entry is written either way.
func creditUnchecked(ctx context.Context, id string, balance, version, amount int64) error {
	key := "wallet:lock:" + id
	ok, err := rdb.SetNX(ctx, key, uuid.NewString(), 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := r.SetBalance(ctx, tx, id, balance+amount, version); err != nil {
		return err
	}
	if err := r.AddEntry(ctx, tx, id, amount); err != nil { // want `r.AddEntry \(database/sql Tx.ExecContext at repo.go:\d+\) under lock key \(SET NX\) carries no fencing token`
		return err
	}
	return tx.Commit()
}

// Near miss: the refusal is logged away, and the entry is written anyway.
func creditIgnoringConflict(ctx context.Context, id string, balance, version, amount int64) error {
	key := "wallet:lock:" + id
	ok, err := rdb.SetNX(ctx, key, uuid.NewString(), 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_ = r.UpdateBalance(ctx, tx, id, balance+amount, version)
	if err := r.AddEntry(ctx, tx, id, amount); err != nil { // want `r.AddEntry \(database/sql Tx.ExecContext at repo.go:\d+\) under lock key \(SET NX\) carries no fencing token`
		return err
	}
	return tx.Commit()
}
