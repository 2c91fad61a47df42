package fence

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
)

// A leader that writes its state under keys made from its lock's random
// value: followers read the keys of the current value only, so a deposed
// leader's late write lands where nobody reads. No fence is needed.
func leaderPost(ctx context.Context, state string) {
	mu := rs.NewMutex("leader", redsync.WithExpiry(10*time.Second))
	if err := mu.Lock(); err != nil {
		return
	}
	rdb.Set(ctx, "state:"+mu.Value(), state, 10*time.Second)
	post(ctx, mu.Value(), state)
}

func post(ctx context.Context, owner, state string) {
	rdb.Set(ctx, "leader-state:"+owner, state, 10*time.Second)
}

// The token written as the value, not in the key, namespaces nothing:
// the late write still overwrites the shared key.
func leaderPostShared(ctx context.Context, state string) {
	mu := rs.NewMutex("leader2", redsync.WithExpiry(10*time.Second))
	if err := mu.Lock(); err != nil {
		return
	}
	rdb.Set(ctx, "state", mu.Value()+":"+state, 10*time.Second) // want `Redis SET under lock "leader2" \(redsync Mutex.Lock\) carries no fencing token`
}

// Through a helper, a key made from another argument is still shared.
func leaderPostVia(ctx context.Context, state string) {
	mu := rs.NewMutex("leader3", redsync.WithExpiry(10*time.Second))
	if err := mu.Lock(); err != nil {
		return
	}
	postShared(ctx, mu.Value(), state)
}

func postShared(ctx context.Context, owner, state string) {
	rdb.Set(ctx, "leader-state", owner+":"+state, 10*time.Second) // want `Redis SET under lock "leader3" \(redsync Mutex.Lock\) carries no fencing token`
}
