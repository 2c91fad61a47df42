package lease

import (
	"context"
	"log"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// A channel's leader renews its key; when the renewal fails, the loop
// hands the loss to a method named for it, which stops the channel's
// work. The holder is told: silent.
type Channels struct {
	rdb     *redis.Client
	id      string
	mu      sync.Mutex
	running map[string]context.CancelFunc
	losses  int
}

func (c *Channels) renewLoop(ctx context.Context, channel string) {
	key := "leader:" + channel
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n, err := extendScript.Run(ctx, c.rdb, []string{key}, c.id, 15000).Int()
			if err != nil || n == 0 {
				log.Printf("lost leadership of %s", channel)
				c.handleLeadershipLoss(channel)
				return
			}
		}
	}
}

func (c *Channels) handleLeadershipLoss(channel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if stop := c.running[channel]; stop != nil {
		stop()
		delete(c.running, channel)
	}
}

// Near miss: the failure branch only counts the loss for a metric; the
// channel's work goes on.
func (c *Channels) renewLoopCounted(ctx context.Context, channel string) {
	key := "leader:" + channel
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n, err := extendScript.Run(ctx, c.rdb, []string{key}, c.id, 15000).Int()
			if err != nil || n == 0 { // want `this keep-alive renews with EVAL of lock key but drops the outcome`
				log.Printf("lost leadership of %s", channel)
				c.recordLoss()
				return
			}
		}
	}
}

func (c *Channels) recordLoss() { c.losses++ }

func (c *Channels) Start(ctx context.Context, channel string) {
	go c.renewLoop(ctx, channel)
	go c.renewLoopCounted(ctx, channel)
}
