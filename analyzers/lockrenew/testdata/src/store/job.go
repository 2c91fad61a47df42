package store

import (
	"context"
	"time"
)

func Job(ctx context.Context, s Store, id, token string) {
	if !s.Acquire(ctx, "job:"+id, token, time.Minute) {
		return
	}
	defer s.Release(ctx, "job:"+id, token)
	go func() {
		for range time.Tick(20 * time.Second) {
			s.Extend(ctx, "job:"+id, time.Minute)
		}
	}()
}
