package election

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

const leaderKey = "scheduler:leader"

// An elector whose steps another package runs on a ticker: TryLead, then
// KeepAlive while leading.
type Elector struct {
	rdb      *redis.Client
	id       string
	isLeader atomic.Bool
}

func (e *Elector) TryLead(ctx context.Context) (bool, error) {
	ok, err := e.rdb.SetNX(ctx, leaderKey, e.id, 10*time.Second).Result()
	e.isLeader.Store(ok)
	return ok, err
}

// The EXPIRE's reply (false: the key is gone) is dropped, and the node
// goes on as the leader.
func (e *Elector) KeepAlive(ctx context.Context) {
	e.rdb.Expire(ctx, leaderKey, 10*time.Second) // want `keep-alive renews with EXPIRE of lock leaderKey but drops the outcome`
	e.isLeader.Store(true)
}

// Near miss: the renewal's outcome goes back to the caller.
func (e *Elector) Renew(ctx context.Context) (bool, error) {
	return e.rdb.Expire(ctx, leaderKey, 10*time.Second).Result()
}

func (e *Elector) Resign(ctx context.Context) {
	e.isLeader.Store(false)
	e.rdb.Del(ctx, leaderKey)
}

// Near miss: a heartbeat this package calls once, outside any loop, is
// judged where it is called.
func (e *Elector) Start(ctx context.Context) {
	if ok, _ := e.TryLead(ctx); ok {
		e.HeartbeatOnce(ctx)
	}
}

func (e *Elector) HeartbeatOnce(ctx context.Context) {
	e.rdb.Expire(ctx, leaderKey, 10*time.Second)
}
