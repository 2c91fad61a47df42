package store

import (
	"context"
	"time"
)

var started = time.Now() // want `lock "nightly" stores a timestamp as its value`

func Report(ctx context.Context, s Store, day string) {
	if !s.Acquire(ctx, "report:"+day, "1", time.Minute) { // want `lock "report:" \+ day stores the constant "1" as its value`
		return
	}
	defer s.Release(ctx, "report:"+day)
}

// A package variable set once from the clock.
func Nightly(ctx context.Context, s Store) {
	if !s.Acquire(ctx, "nightly", started.Unix(), time.Hour) {
		return
	}
	defer s.Release(ctx, "nightly")
}
