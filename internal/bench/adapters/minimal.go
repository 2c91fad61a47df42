package adapters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/locklint/locklint/safelock"
	"github.com/redis/go-redis/v9"
)

// Minimal is the reference a correct lock is measured against: SET NX PX
// with a random token in one round trip, release and renew by Lua
// compare-and-delete and compare-and-pexpire (EVALSHA), no fence, and a
// 5 ms poll to wait. Nothing correct can take fewer round trips, so it
// shows what safelock's fence and wake-ups cost on top.
var Minimal = bench.Factory{
	Name:  "minimal",
	About: "SET NX PX + Lua compare-and-delete, no fence, 5 ms poll (the reference for overhead)",
	New: func(t *bench.Target) (bench.Locker, error) {
		if len(t.Clients) != 1 {
			return nil, fmt.Errorf("minimal: %w on several independent nodes", bench.ErrUnsupported)
		}
		return &minimal{c: t.Client()}, nil
	},
}

// The scripts take KEYS and ARGV only.
var (
	minimalRelease = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)
	minimalRenew   = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`)
)

type minimal struct{ c redis.UniversalClient }

func (m *minimal) Name() string { return "minimal" }
func (m *minimal) Close() error { return nil }

func (m *minimal) TryAcquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	token := safelock.NewToken()
	ok, err := m.c.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, bench.ErrNotAcquired
	}
	return &minimalLease{c: m.c, key: key, token: token}, nil
}

func (m *minimal) Acquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	for {
		l, err := m.TryAcquire(ctx, key, ttl)
		if !errors.Is(err, bench.ErrNotAcquired) {
			return l, err
		}
		if err := bench.Sleep(ctx, pollInterval); err != nil {
			return nil, err
		}
	}
}

type minimalLease struct {
	c          redis.UniversalClient
	key, token string
}

func (l *minimalLease) Release(ctx context.Context) error {
	n, err := minimalRelease.Run(ctx, l.c, []string{l.key}, l.token).Int()
	if err == nil && n == 0 {
		err = bench.ErrLeaseLost
	}
	return err
}

func (l *minimalLease) Renew(ctx context.Context, ttl time.Duration) error {
	n, err := minimalRenew.Run(ctx, l.c, []string{l.key}, l.token, ttl.Milliseconds()).Int()
	if err == nil && n == 0 {
		err = bench.ErrLeaseLost
	}
	return err
}

func (l *minimalLease) Fence() int64 { return 0 }
