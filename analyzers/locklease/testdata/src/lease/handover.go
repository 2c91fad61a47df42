package lease

import (
	"context"
	"log"
	"sync"
	"time"
)

// A channel's leader keeps its lease in a loop; the failure branch hands
// the loss to a method of the package, which stops the channel's adapter
// (its context's cancel) two calls down.
type Channels struct {
	lock    *Lock
	mu      sync.Mutex
	cancels map[string]context.CancelFunc
	fails   map[string]int
}

func (c *Channels) renewLoop(ctx context.Context, id string) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for range t.C {
		n, err := extendScript.Run(ctx, c.lock.rdb, []string{c.lock.key}, c.lock.token, 15000).Int()
		if err != nil || n == 0 {
			log.Println("lost leadership of", id)
			c.handleLoss(id)
			return
		}
	}
}

func (c *Channels) handleLoss(id string) {
	if !c.running(id) {
		return
	}
	c.stopChannel(id)
}

func (c *Channels) stopChannel(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cancel, ok := c.cancels[id]; ok {
		cancel()
	}
}

func (c *Channels) running(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.cancels[id]
	return ok
}

func (c *Channels) Start(ctx context.Context, id string) {
	go c.renewLoop(ctx, id)
}

// Near miss: the helper only logs and counts; nobody learns of the loss.
func (c *Channels) renewCounted(ctx context.Context, id string) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for range t.C {
		n, err := extendScript.Run(ctx, c.lock.rdb, []string{c.lock.key}, c.lock.token, 15000).Int()
		if err != nil || n == 0 { // want `this keep-alive renews with EVAL of lock c.lock.key but drops the outcome`
			c.noteFailure(id)
			return
		}
	}
}

func (c *Channels) noteFailure(id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fails[id]++
	log.Println("renewal failed for", id)
	return nil
}

func (c *Channels) StartCounted(ctx context.Context, id string) {
	go c.renewCounted(ctx, id)
}
