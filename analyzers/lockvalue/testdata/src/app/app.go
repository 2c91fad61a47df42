package app

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"flaghelp"
	"lockhelp"
	"lockutil"
	"tokens"
)

type Service struct {
	rdb *redis.Client
}

func (s *Service) Run(ctx context.Context, id string) {
	if !lockutil.Acquire(ctx, s.rdb, "lock:order:"+id, tokens.RandString(16), time.Minute) { // want `lock "lock:order:" \+ id stores math/rand output as its value`
		return
	}
	defer lockutil.Release(ctx, s.rdb, "lock:order:"+id)
}

func (s *Service) RunNamed(ctx context.Context, id string) {
	if !lockutil.Acquire(ctx, s.rdb, "lock:named:"+id, lockutil.Owner(), time.Minute) { // want `lock "lock:named:" \+ id stores the constant "worker" as its value`
		return
	}
	defer lockutil.Release(ctx, s.rdb, "lock:named:"+id)
}

func (s *Service) RunConst(ctx context.Context, id string) {
	if !lockutil.Acquire(ctx, s.rdb, "lock:const:"+id, "1", time.Minute) { // want `lock "lock:const:" \+ id stores the constant "1" as its value`
		return
	}
	defer lockutil.Release(ctx, s.rdb, "lock:const:"+id)
}

// Negative: a secure token from the helper package.
func (s *Service) RunSafely(ctx context.Context, id string) error {
	tok, err := tokens.Secure()
	if err != nil {
		return err
	}
	if !lockutil.Acquire(ctx, s.rdb, "lock:invoice:"+id, tok, time.Minute) {
		return nil
	}
	defer lockutil.Release(ctx, s.rdb, "lock:invoice:"+id)
	return nil
}

// The helper stores a constant of its own.
func (s *Service) Sync(ctx context.Context, id string) {
	if !lockhelp.Lock(ctx, s.rdb, "lock:sync:"+id) { // want `lock "lock:sync:" \+ id is acquired with SET NX \(in lockhelp.Lock at lock.go:15\), which stores the constant "locked" as its value`
		return
	}
	defer lockhelp.Unlock(ctx, s.rdb, "lock:sync:"+id)
}

// Negative: the helper makes a unique token.
func (s *Service) SyncSafely(ctx context.Context, id string) {
	_, ok := lockhelp.TryLock(ctx, s.rdb, "lock:sync2:"+id)
	if !ok {
		return
	}
	defer lockhelp.Unlock(ctx, s.rdb, "lock:sync2:"+id)
}

// The helper returns the timestamp it stored: reported once, at the call.
func (s *Service) Obtain(ctx context.Context, id string) {
	tok, ok := lockhelp.Obtain(ctx, s.rdb, "lock:obtain:"+id) // want `lock "lock:obtain:" \+ id is acquired with SET NX \(in lockhelp.Obtain at lock.go:\d+\), which stores a timestamp as its value`
	if !ok {
		return
	}
	_ = tok
	defer lockhelp.Unlock(ctx, s.rdb, "lock:obtain:"+id)
}

// The marker's own package judged it (a flag): a caller that sets and
// clears it around work is not told again about a value it never chose.
func (s *Service) Busy(ctx context.Context, id string) {
	if _, err := flaghelp.MarkBusy(ctx, s.rdb, id); err != nil {
		return
	}
	defer flaghelp.ClearBusy(ctx, s.rdb, id)
}
