package result

import (
	"context"
	"log"
	"time"
)

func lead(ctx context.Context) {}

// The error is only logged, but a failed SetNX also answers false, and
// !ok waits and tries again: the path that falls through reaches the
// acquire once more, never lead.
func campaign(ctx context.Context, self string) {
	for {
		if ctx.Err() != nil {
			return
		}
		ok, err := rdb.SetNX(ctx, "leader:cron", self, 10*time.Second).Result()
		if err != nil {
			log.Printf("campaign: %v", err)
		}
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Second):
				continue
			}
		}
		lead(ctx)
	}
}

// Here the refusal is tested before the error and only the refusal
// retries: an error falls through into lead.
func campaignErrLast(ctx context.Context, self string) {
	for {
		if ctx.Err() != nil {
			return
		}
		ok, err := rdb.SetNX(ctx, "leader:cron2", self, 10*time.Second).Result()
		if !ok && err == nil {
			time.Sleep(5 * time.Second)
			continue
		}
		if err != nil { // want `when SetNX of "leader:cron2" fails \(err != nil\), this branch falls through into the code that needs the lock: lead\(...\) runs without it`
			log.Printf("campaign: %v", err)
		}
		lead(ctx)
	}
}
