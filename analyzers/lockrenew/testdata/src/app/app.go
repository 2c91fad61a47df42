package app

import (
	"context"
	"log"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"lockutil"
)

type Service struct {
	rdb *redis.Client
}

func (s *Service) Run(ctx context.Context, id string) {
	token := uuid.NewString()
	if !lockutil.Acquire(ctx, s.rdb, "lock:order:"+id, token, time.Minute) {
		return
	}
	go func() {
		for range time.Tick(20 * time.Second) {
			lockutil.Touch(ctx, s.rdb, "lock:order:"+id, time.Minute) // want `lock "lock:order:" \+ id is renewed with EXPIRE \(in lockutil.Touch at lockutil.go:17\) without checking`
		}
	}()
}

// Negative: the helper compares in its script.
func (s *Service) RunSafely(ctx context.Context, id string) {
	token := uuid.NewString()
	if !lockutil.Acquire(ctx, s.rdb, "lock:invoice:"+id, token, time.Minute) {
		return
	}
	go func() {
		for range time.Tick(20 * time.Second) {
			lockutil.Renew(ctx, s.rdb, "lock:invoice:"+id, token, time.Minute)
		}
	}()
}

// Negative: sessions are touched with the same helper, never locked.
func (s *Service) Touch(ctx context.Context, sid string) {
	lockutil.Touch(ctx, s.rdb, "session:"+sid, time.Hour)
}

// The helper returns the token it stored: the fix can name it.
func (s *Service) Export(ctx context.Context, id string) {
	tok, ok := lockutil.Obtain(ctx, s.rdb, "lock:export:"+id, time.Minute)
	if !ok {
		return
	}
	log.Printf("export %s locked as %s", id, tok)
	go func() {
		for range time.Tick(20 * time.Second) {
			s.rdb.PExpire(ctx, "lock:export:"+id, time.Minute) // want `lock "lock:export:" \+ id is renewed with PEXPIRE without checking`
		}
	}()
}
