package lease

import (
	"context"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

const jobTTL = 5 * time.Second

func jobKey(id string) string { return "job:" + id }

type Runner struct {
	rdb   *goredis.Client
	token string
}

func (r *Runner) release(ctx context.Context, key string) { r.rdb.Del(ctx, key) }

// heartbeat renews job locks; Run's section is renewed from here.
func (r *Runner) heartbeat(ctx context.Context, id string) {
	r.rdb.PExpire(ctx, jobKey(id), jobTTL)
}
