package lease

import (
	"context"
	"log"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

var extendScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

type Lock struct {
	rdb   *redis.Client
	key   string
	token string
	lost  chan struct{}
	stop  chan struct{}
}

func (l *Lock) TryLock(ctx context.Context) bool {
	ok, err := l.rdb.SetNX(ctx, l.key, l.token, 30*time.Second).Result()
	if err != nil || !ok {
		return false
	}
	go l.watchdog(ctx)
	return true
}

func (l *Lock) Unlock(ctx context.Context) {
	close(l.stop)
	l.rdb.Del(ctx, l.key)
}

// The renewal's reply is thrown away: a lost lock never reaches the holder.
func (l *Lock) watchdog(ctx context.Context) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000) // want `this keep-alive renews with EVAL of lock l.key but drops the outcome`
		}
	}
}

// Failure is only logged, and the goroutine returns: the holder goes on.
func (l *Lock) keepAlive(ctx context.Context) {
	for range time.Tick(10 * time.Second) {
		n, err := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int()
		if err != nil {
			log.Println("renew:", err)
			return
		}
		if n == 0 { // want `this keep-alive renews with EVAL of lock l.key but drops the outcome`
			return
		}
	}
}

// Failure closes the channel the holder watches: the signal arrives.
func (l *Lock) keepAliveSignalled(ctx context.Context) {
	for range time.Tick(10 * time.Second) {
		n, err := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int()
		if err != nil || n == 0 {
			close(l.lost)
			return
		}
	}
}

// Failure cancels the work's context.
func (l *Lock) refreshLoop(ctx context.Context, cancel context.CancelFunc) {
	for range time.Tick(10 * time.Second) {
		if n, _ := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int(); n == 0 {
			cancel()
			return
		}
	}
}

// A heartbeat key with a TTL is no lock: nothing to tell anyone.
func heartbeat(ctx context.Context, rdb *redis.Client, id string) {
	go func() {
		for range time.Tick(5 * time.Second) {
			rdb.Expire(ctx, "alive:"+id, 15*time.Second)
		}
	}()
}

// One if chain handles both outcomes: reported at its start.
func (l *Lock) refreshChain(ctx context.Context) {
	for range time.Tick(10 * time.Second) {
		n, err := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int()
		if err != nil { // want `this keep-alive renews with EVAL of lock l.key but drops the outcome`
			log.Println("renew:", err)
			return
		} else if n == 0 {
			log.Println("lock gone")
			return
		}
	}
}

// refresh is the lock's own renewal; the loop drops its error. refresh
// itself keeps only the script's error, so a lost lock renews
// "successfully": a second defect, in another place.
func (l *Lock) refresh(ctx context.Context) error {
	return extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Err() // want `the reply of EVAL of lock l.key, which says whether the key was still held .* is discarded, and refresh returns only the error`
}

func (l *Lock) autoRefresh(ctx context.Context) {
	go func() {
		for range time.Tick(10 * time.Second) {
			err := l.refresh(ctx) // want `this keep-alive renews with Lock.refresh but drops the outcome`
			if err != nil {
				log.Println("refresh failed:", err)
			}
		}
	}()
}

// Near miss: the renewal helper turns a 0 reply into an error, and the
// loop cancels the work on it.
func (l *Lock) refreshOrLost(ctx context.Context) error {
	n, err := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return context.Canceled
	}
	return nil
}

func (l *Lock) autoRefreshChecked(ctx context.Context, cancel context.CancelFunc) {
	go func() {
		for range time.Tick(10 * time.Second) {
			if err := l.refreshOrLost(ctx); err != nil {
				cancel()
				return
			}
		}
	}()
}

// A cache refresher is no lock: its dropped errors are its own business.
type Catalog struct{}

func (c *Catalog) Refresh(ctx context.Context) error { return nil }

func refreshCatalog(ctx context.Context, c *Catalog) {
	go func() {
		for range time.Tick(time.Minute) {
			_ = c.Refresh(ctx)
		}
	}()
}

// A guard whose keep-alive marks a flag that only its Close reads: the
// work under the lock never learns the lock is gone.
type Guard struct {
	l       *Lock
	ticker  *time.Ticker
	closed  bool
	expired bool
}

func (g *Guard) keep(ctx context.Context) {
	go func() {
		for range g.ticker.C {
			if err := g.l.refresh(ctx); err != nil { // want `this keep-alive renews with Lock.refresh but drops the outcome`
				g.ticker.Stop()
				g.closed = true
			}
		}
	}()
}

func (g *Guard) Close() {
	if !g.closed {
		g.ticker.Stop()
	}
}

// Near miss: the flag has an accessor the holder polls.
func (g *Guard) keepWatched(ctx context.Context) {
	go func() {
		for range g.ticker.C {
			if err := g.l.refresh(ctx); err != nil {
				g.ticker.Stop()
				g.expired = true
			}
		}
	}()
}

func (g *Guard) Held() bool { return !g.expired }

// The goroutine leaves on a failed renewal, and its deferred cancel ends
// the context the work runs under.
func (l *Lock) runAsLeader(ctx context.Context, work func(context.Context) error) error {
	leaderCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer cancel()
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-leaderCtx.Done():
				return
			case <-t.C:
				n, err := extendScript.Run(leaderCtx, l.rdb, []string{l.key}, l.token, 30000).Int()
				if err != nil || n == 0 {
					log.Println("lost the lock, stepping down")
					return
				}
			}
		}
	}()
	return work(leaderCtx)
}

// The goroutine leaves, but what it defers tells nobody: the work goes on.
func (l *Lock) runWithGroup(ctx context.Context, wg *sync.WaitGroup, work func(context.Context) error) error {
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for range t.C {
			n, err := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int()
			if err != nil || n == 0 { // want `this keep-alive renews with EVAL of lock l.key but drops the outcome`
				log.Println("lost the lock")
				return
			}
		}
	}()
	return work(ctx)
}

// What the goroutine defers only tidies its own bookkeeping under a Go
// mutex: the holder is never told.
func (l *Lock) renewer(ctx context.Context, mu *sync.Mutex, renewers map[string]bool) {
	go func() {
		defer func() {
			mu.Lock()
			delete(renewers, l.key)
			mu.Unlock()
		}()
		for range time.Tick(10 * time.Second) {
			n, err := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int()
			if err != nil {
				continue
			}
			if n == 0 { // want `this keep-alive renews with EVAL of lock l.key but drops the outcome`
				return
			}
		}
	}()
}

// The goroutine closes done when it ends, for the stop function that
// waits for it: that tells the holder nothing.
func (l *Lock) withDone(ctx context.Context) (stop func()) {
	stopCh, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-stopCh:
				return
			case <-t.C:
				n, err := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int()
				if err != nil || n == 0 { // want `this keep-alive renews with EVAL of lock l.key but drops the outcome`
					log.Println("renew failed")
					return
				}
			}
		}
	}()
	return func() {
		close(stopCh)
		<-done
	}
}
