// Package tiersvc takes a SET NX lock per tier and writes through
// tierrepo's interface inside a transaction.
package tiersvc

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"tierrepo"
)

type Service struct {
	rdb   *redis.Client
	db    *sql.DB
	tiers tierrepo.Repository
}

func (s *Service) lock(ctx context.Context, key, token string) bool {
	ok, err := s.rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	return err == nil && ok
}

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func (s *Service) unlock(ctx context.Context, key, token string) {
	release.Run(ctx, s.rdb, []string{key}, token)
}

var errSoldOut = errors.New("sold out")

// The tier row is locked FOR UPDATE through the repository's interface in
// the same transaction, and what it returned is tested before the write:
// the database serialises a stale holder's transaction behind the newer one.
func (s *Service) Reserve(ctx context.Context, id, token string, n int) error {
	key := "lock:tier:" + id
	if !s.lock(ctx, key, token) {
		return errors.New("busy")
	}
	defer s.unlock(ctx, key, token)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t, err := s.tiers.GetForUpdate(ctx, tx, id)
	if err != nil {
		return err
	}
	if t.Quota-t.Sold < n {
		return errSoldOut
	}
	if err := s.tiers.AddSold(ctx, tx, id, n); err != nil {
		return err
	}
	return tx.Commit()
}

// Near miss: the same shape through the method that reads without a row
// lock: nothing serialises the write.
func (s *Service) ReserveUnlocked(ctx context.Context, id, token string, n int) error {
	key := "lock:tier2:" + id
	if !s.lock(ctx, key, token) {
		return errors.New("busy")
	}
	defer s.unlock(ctx, key, token)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t, err := s.tiers.Get(ctx, tx, id)
	if err != nil {
		return err
	}
	if t.Quota-t.Sold < n {
		return errSoldOut
	}
	if err := s.tiers.AddSold(ctx, tx, id, n); err != nil { // want `s.tiers.AddSold \(database/sql Tx.ExecContext at repo.go:40\) under lock key \(SET NX \(in Service.lock at svc.go:23\)\) carries no fencing token`
		return err
	}
	return tx.Commit()
}
