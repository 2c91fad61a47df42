package lease

import (
	"context"
	"time"
)

// Renewed by heartbeat, in another file.
func (r *Runner) Run(ctx context.Context, id string) {
	if !r.rdb.SetNX(ctx, jobKey(id), r.token, jobTTL).Val() {
		return
	}
	defer r.release(ctx, jobKey(id))
	time.Sleep(time.Minute)
}

// Nothing renews report locks; the TTL constant lives in another file.
func (r *Runner) Report(ctx context.Context, day string) {
	key := "report:" + day
	if ok, err := r.rdb.SetNX(ctx, key, r.token, jobTTL).Result(); err != nil || !ok {
		return
	}
	defer r.release(ctx, key)
	ctx, cancel := context.WithTimeout(ctx, time.Minute) // a bound nothing waits out
	defer cancel()
	_ = ctx
}
