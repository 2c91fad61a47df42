package result

import (
	"context"
	"log"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// A health-check elector: its acquire keeps the outcome in an atomic
// bool, and Start and the ticker loop only keep leadership up; the
// checks ask IsLeader elsewhere.
type healthElector struct {
	rdb      *redis.Client
	key, id  string
	isLeader atomic.Bool
	stop     chan struct{}
}

func (l *healthElector) tryLead(ctx context.Context) bool {
	ok, err := l.rdb.SetNX(ctx, l.key, l.id, 30*time.Second).Result()
	if err != nil {
		log.Printf("lead: %v", err)
		l.isLeader.Store(false)
		return false
	}
	if ok {
		l.isLeader.Store(true)
		return true
	}
	l.isLeader.Store(false)
	return false
}

func (l *healthElector) IsLeader() bool { return l.isLeader.Load() }

// Near miss: Start drops the bool, starts the loop and returns.
func (l *healthElector) Start(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	_ = cancel
	l.tryLead(ctx)
	go l.loop(ctx)
	return nil
}

// Near miss: the loop only ticks.
func (l *healthElector) loop(ctx context.Context) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.stop:
			return
		case <-t.C:
			l.tryLead(ctx)
		}
	}
}

// RunOnce drops the bool and then runs the checks through a method of the
// same object that writes: the work runs whether or not it leads.
func (l *healthElector) RunOnce(ctx context.Context) {
	l.tryLead(ctx) // want `the result of l.tryLead, which takes lock healthElector.key .*, is discarded`
	l.record(ctx)
}

func (l *healthElector) record(ctx context.Context) {
	l.rdb.Set(ctx, "health:last", time.Now().Unix(), 0)
}

// An elector that keeps nothing: its Start drops the only outcome there is.
type blindElector struct {
	rdb     *redis.Client
	key, id string
}

func (l *blindElector) tryLead(ctx context.Context) bool {
	ok, err := l.rdb.SetNX(ctx, l.key, l.id, 30*time.Second).Result()
	return err == nil && ok
}

func (l *blindElector) Start(ctx context.Context) error {
	l.tryLead(ctx) // want `the result of l.tryLead, which takes lock blindElector.key .*, is discarded`
	return nil
}

// The same with the bool returned as it came (a summarised wrapper) and
// kept in a plain field.
type tickElector struct {
	rdb     *redis.Client
	key, id string
	leading bool
}

func (l *tickElector) try(ctx context.Context) (bool, error) { // want try:`returns the outcome of SetNX at upkeep.go:\d+`
	ok, err := l.rdb.SetNX(ctx, l.key, l.id, 30*time.Second).Result()
	l.leading = err == nil && ok
	return ok, err
}

// Near miss: the loop only ticks.
func (l *tickElector) Run(ctx context.Context) {
	for range time.Tick(time.Second) {
		l.try(ctx)
	}
}

// The loop works after each tick, whatever the tick said.
func (l *tickElector) RunAndSweep(ctx context.Context, sweep func()) {
	for range time.Tick(time.Second) {
		l.try(ctx) // want `the result of tickElector.try \(SetNX at upkeep.go:\d+\) is discarded`
		sweep()
	}
}
