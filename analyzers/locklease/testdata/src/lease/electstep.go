package lease

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// An election step: SET NX, else GET and, when the value is ours, EXPIRE.
// A rival's value demotes, but a key found gone comes back as an error
// and the step returns still leader: the dropped EXPIRE reply was the
// only word of that loss.
type Elector struct {
	rdb      *redis.Client
	key, id  string
	isLeader atomic.Bool
}

func (e *Elector) step(ctx context.Context) {
	ok, err := e.rdb.SetNX(ctx, e.key, e.id, 15*time.Second).Result()
	if err != nil {
		return
	}
	if ok {
		e.isLeader.Store(true)
		return
	}
	val, err := e.rdb.Get(ctx, e.key).Result()
	if err != nil {
		return
	}
	if val == e.id {
		e.rdb.Expire(ctx, e.key, 15*time.Second) // want `this keep-alive renews with EXPIRE of lock e.key but drops the outcome`
		e.isLeader.Store(true)
	} else {
		e.isLeader.Store(false)
	}
}

func (e *Elector) Run(ctx context.Context) {
	go func() {
		for range time.Tick(5 * time.Second) {
			e.step(ctx)
		}
	}()
}

// Near miss: the error branch, the key gone included, demotes too.
type StrictElector struct {
	rdb      *redis.Client
	key, id  string
	isLeader atomic.Bool
}

func (e *StrictElector) step(ctx context.Context) {
	ok, err := e.rdb.SetNX(ctx, e.key, e.id, 15*time.Second).Result()
	if err != nil {
		e.isLeader.Store(false)
		return
	}
	if ok {
		e.isLeader.Store(true)
		return
	}
	val, err := e.rdb.Get(ctx, e.key).Result()
	if err != nil {
		e.isLeader.Store(false)
		return
	}
	if val == e.id {
		e.rdb.Expire(ctx, e.key, 15*time.Second)
		e.isLeader.Store(true)
	} else {
		e.isLeader.Store(false)
	}
}

func (e *StrictElector) Run(ctx context.Context) {
	go func() {
		for range time.Tick(5 * time.Second) {
			e.step(ctx)
		}
	}()
}
