package adapters

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"
)

// Rueidislock adapts rueidislock with its defaults: a lock is a majority
// (2 of 3) of keys, waiters are woken by client-side-cache invalidations,
// and a watchdog extends the keys every validity/2. The validity is fixed
// per Locker, so the adapter keeps one rueidislock.Locker per TTL. Renew is
// unsupported (the library renews by itself). On the embedded server, which
// has no client tracking, the cache is disabled and waiters poll every 20 ms.
// Commands are counted by wrapping the rueidis client.
var Rueidislock = bench.Factory{
	Name:  "rueidislock",
	About: "rueidislock: 2-of-3 keys, watchdog, wake-up by client-side-cache invalidation (20 ms poll on the embedded server)",
	New: func(t *bench.Target) (bench.Locker, error) {
		if len(t.Clients) != 1 {
			return nil, fmt.Errorf("rueidislock: %w on several independent nodes", bench.ErrUnsupported)
		}
		addrs := make([]string, len(t.Endpoints))
		for i, e := range t.Endpoints {
			addrs[i] = e.Addr
		}
		e := t.Endpoints[0]
		opt := rueidis.ClientOption{
			InitAddress:      addrs,
			Username:         e.Username,
			Password:         e.Password,
			SelectDB:         e.DB,
			TLSConfig:        e.TLS,
			Dialer:           net.Dialer{Timeout: bench.DialTimeout},
			ConnWriteTimeout: bench.IOTimeout,
			DisableCache:     t.Kind == bench.KindEmbedded,
		}
		return &rlLocker{opt: opt, n: &t.Commands, trips: &t.RoundTrips, byTTL: map[time.Duration]rueidislock.Locker{}}, nil
	},
}

type rlLocker struct {
	opt   rueidis.ClientOption
	n     *atomic.Int64
	trips *atomic.Int64
	mu    sync.Mutex
	byTTL map[time.Duration]rueidislock.Locker
}

func (r *rlLocker) Name() string { return "rueidislock" }

func (r *rlLocker) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for ttl, l := range r.byTTL {
		l.Close()
		delete(r.byTTL, ttl)
	}
	return nil
}

func (r *rlLocker) locker(ttl time.Duration) (rueidislock.Locker, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l, ok := r.byTTL[ttl]; ok {
		return l, nil
	}
	l, err := rueidislock.NewLocker(rueidislock.LockerOption{
		ClientOption: r.opt,
		KeyValidity:  ttl,
		ClientBuilder: func(o rueidis.ClientOption) (rueidis.Client, error) {
			c, err := rueidis.NewClient(o)
			if err != nil {
				return nil, err
			}
			return countingClient{Client: c, n: r.n, trips: r.trips}, nil
		},
	})
	if err != nil {
		return nil, err
	}
	r.byTTL[ttl] = l
	return l, nil
}

func (r *rlLocker) TryAcquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	return r.acquire(ctx, key, ttl, true)
}

func (r *rlLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	return r.acquire(ctx, key, ttl, false)
}

// acquire keeps the lock's lifetime apart from ctx: rueidislock ties the
// lock to the context it was acquired with, and ctx here only bounds the
// wait.
func (r *rlLocker) acquire(ctx context.Context, key string, ttl time.Duration, try bool) (bench.Lease, error) {
	l, err := r.locker(ttl)
	if err != nil {
		return nil, err
	}
	life, endLife := context.WithCancel(context.Background())
	var mu sync.Mutex
	granted := false
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !granted {
			endLife()
		}
	})
	var lockCtx context.Context
	var unlock context.CancelFunc
	if try {
		lockCtx, unlock, err = l.TryWithContext(life, key)
	} else {
		lockCtx, unlock, err = l.WithContext(life, key)
	}
	mu.Lock()
	granted = err == nil
	mu.Unlock()
	stop()
	switch {
	case err == nil && lockCtx.Err() == nil:
		return &rlLease{ctx: lockCtx, unlock: unlock, end: endLife}, nil
	case err == nil: // the wait ended just as the lock was granted
		unlock()
		endLife()
		return nil, ctx.Err()
	case ctx.Err() != nil:
		endLife()
		return nil, ctx.Err()
	case errors.Is(err, rueidislock.ErrNotLocked):
		endLife()
		return nil, bench.ErrNotAcquired
	}
	endLife()
	return nil, err
}

type rlLease struct {
	ctx    context.Context
	unlock context.CancelFunc
	end    context.CancelFunc
}

func (l *rlLease) Release(context.Context) error {
	lost := l.ctx.Err() != nil
	l.unlock()
	l.end()
	if lost {
		return bench.ErrLeaseLost
	}
	return nil
}

func (l *rlLease) Renew(context.Context, time.Duration) error { return bench.ErrUnsupported }
func (l *rlLease) Fence() int64                               { return 0 }

// countingClient counts the commands rueidislock sends.
type countingClient struct {
	rueidis.Client
	n, trips *atomic.Int64
}

func (c countingClient) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	c.n.Add(1)
	c.trips.Add(1)
	return c.Client.Do(ctx, cmd)
}

func (c countingClient) DoMulti(ctx context.Context, cmds ...rueidis.Completed) []rueidis.RedisResult {
	c.n.Add(int64(len(cmds)))
	c.trips.Add(1)
	return c.Client.DoMulti(ctx, cmds...)
}

// SelfRenewing: rueidislock's watchdog extends held keys in the background.
func (r *rlLocker) SelfRenewing() bool { return true }
