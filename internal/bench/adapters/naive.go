package adapters

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/redis/go-redis/v9"
)

// Naive is the pattern locklint flags: SETNX, then PEXPIRE in a second
// round trip (a crash between the two leaves the key forever), DEL without
// an ownership check (a holder whose key expired deletes the next holder's
// lock), PEXPIRE without an ownership check to renew, and a fixed-interval
// poll to wait. PEXPIRE rather than EXPIRE so that sub-second TTLs work.
var Naive = bench.Factory{
	Name:  "naive",
	About: "SETNX + PEXPIRE + DEL, no owner checks, 5 ms poll",
	New: func(t *bench.Target) (bench.Locker, error) {
		if len(t.Clients) != 1 {
			return nil, fmt.Errorf("naive: %w on several independent nodes", bench.ErrUnsupported)
		}
		return &naive{c: t.Client()}, nil
	},
}

type naive struct{ c redis.UniversalClient }

func (n *naive) Name() string { return "naive" }
func (n *naive) Close() error { return nil }

func (n *naive) TryAcquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	ok, err := n.c.SetNX(ctx, key, hex.EncodeToString(b[:]), 0).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, bench.ErrNotAcquired
	}
	if err := n.c.PExpire(ctx, key, ttl).Err(); err != nil {
		return nil, err
	}
	return &naiveLease{c: n.c, key: key}, nil
}

func (n *naive) Acquire(ctx context.Context, key string, ttl time.Duration) (bench.Lease, error) {
	for {
		l, err := n.TryAcquire(ctx, key, ttl)
		if !errors.Is(err, bench.ErrNotAcquired) {
			return l, err
		}
		if err := bench.Sleep(ctx, pollInterval); err != nil {
			return nil, err
		}
	}
}

type naiveLease struct {
	c   redis.UniversalClient
	key string
}

func (l *naiveLease) Release(ctx context.Context) error { return l.c.Del(ctx, l.key).Err() }

func (l *naiveLease) Renew(ctx context.Context, ttl time.Duration) error {
	return l.c.PExpire(ctx, l.key, ttl).Err()
}

func (l *naiveLease) Fence() int64 { return 0 }
