// Package sharedwrite writes through a helper that two locked sections
// share: each report stays at its call, and shows where the write lands.
package sharedwrite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Svc struct {
	rdb *redis.Client
	db  *sql.DB
}

func (s *Svc) setStatus(ctx context.Context, id int64, status string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE orders SET status = ? WHERE id = ?", status, id) // the write
	return err
}

func (s *Svc) lock(ctx context.Context, key string) (string, error) {
	token := newToken()
	ok, err := s.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("busy")
	}
	return token, nil
}

func (s *Svc) Pay(ctx context.Context, id int64) error {
	token, err := s.lock(ctx, "lock:order")
	if err != nil {
		return err
	}
	defer unlock.Run(ctx, s.rdb, []string{"lock:order"}, token)
	return s.setStatus(ctx, id, "paid") // want `s.setStatus \(database/sql DB.ExecContext at sharedwrite.go:24\) under lock "lock:order"`
}

func (s *Svc) Cancel(ctx context.Context, id int64) error {
	token, err := s.lock(ctx, "lock:order")
	if err != nil {
		return err
	}
	defer unlock.Run(ctx, s.rdb, []string{"lock:order"}, token)
	return s.setStatus(ctx, id, "cancelled") // want `s.setStatus \(database/sql DB.ExecContext at sharedwrite.go:24\) under lock "lock:order"`
}

// newToken returns a random lock token.
func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
