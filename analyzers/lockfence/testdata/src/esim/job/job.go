package job

import (
	"context"
	"net/http"
	"time"

	"esim/store"

	"github.com/redis/go-redis/v9"
)

// The narrow interfaces a job needs; store implements them.
type stockStore interface {
	Allocate(ctx context.Context, operator string) (*store.Stock, error)
}

type progress interface {
	Progress(ctx context.Context, n int) error
}

type audit interface {
	Record(ctx context.Context, e store.Entry) error
}

type Switch struct {
	rdb   *redis.Client
	stock stockStore
	done  progress
	audit audit
	token string
}

// The store package's StockStore is the only type of the project that
// implements stockStore: Allocate's UPDATE is under the lock.
func (s *Switch) Run(ctx context.Context, operator string) error {
	key := "switch:lock:" + operator
	ok, err := s.rdb.SetNX(ctx, key, s.token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer s.rdb.Del(ctx, key)
	_, err = s.stock.Allocate(ctx, operator) // want `s.stock.Allocate \(database/sql DB.ExecContext at store.go:\d+\) under lock key \(SET NX\) carries no fencing token`
	return err
}

// Near miss: progress has one method whose signature names no type of
// the store package: StockStore merely has a method of that shape.
func (s *Switch) Step(ctx context.Context, operator string, n int) error {
	key := "switch:lock:" + operator
	ok, err := s.rdb.SetNX(ctx, key, s.token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer s.rdb.Del(ctx, key)
	return s.done.Progress(ctx, n)
}

// Near miss: two types of the project implement audit, one in memory.
func (s *Switch) Note(ctx context.Context, operator string) error {
	key := "switch:lock:" + operator
	ok, err := s.rdb.SetNX(ctx, key, s.token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer s.rdb.Del(ctx, key)
	return s.audit.Record(ctx, store.Entry{What: operator})
}

// Near miss: http.ResponseWriter is not the project's interface. w is
// whatever the caller passes, though one type of the project implements
// it.
func (s *Switch) Log(ctx context.Context, w http.ResponseWriter, operator string) error {
	key := "switch:lock:" + operator
	ok, err := s.rdb.SetNX(ctx, key, s.token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer s.rdb.Del(ctx, key)
	_, err = w.Write([]byte(operator))
	return err
}
