// Package injectedclock takes locks whose value comes from a clock the
// code was given (so that tests can replace it): a now func field, a
// Clock interface.
package injectedclock

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

type Clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
}

type runner struct {
	rdb   *redis.Client
	now   func() time.Time
	clock Clock
	token func() string
}

func newRunner(rdb *redis.Client, clock Clock, token func() string) *runner {
	return &runner{rdb: rdb, now: time.Now, clock: clock, token: token}
}

func (r *runner) tick(ctx context.Context) {
	ok, err := r.rdb.SetNX(ctx, "scheduler:lock", strconv.FormatInt(r.now().UnixNano(), 10), time.Minute).Result() // want `stores a timestamp as its value`
	if err != nil || !ok {
		return
	}
	defer r.rdb.Del(context.Background(), "scheduler:lock")
}

func (r *runner) sweep(ctx context.Context) {
	ok, err := r.rdb.SetNX(ctx, "sweep:lock", r.clock.Now().Unix(), time.Minute).Result() // want `stores a timestamp as its value`
	if err != nil || !ok {
		return
	}
	defer r.rdb.Del(context.Background(), "sweep:lock")
}

// Near miss: a func value that returns no time (what it returns is not
// known here), with a TTL measured by the injected clock.
func (r *runner) other(ctx context.Context, started time.Time) {
	ok, err := r.rdb.SetNX(ctx, "other:lock", r.token(), r.clock.Since(started)+time.Minute).Result()
	if err != nil || !ok {
		return
	}
	defer r.rdb.Del(context.Background(), "other:lock")
}
