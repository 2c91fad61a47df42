package release

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// The acquire returns a lease that carries the key; the release is a
// method of the lease, in another function.
type lease struct {
	rdb *redis.Client
	key string
}

func obtain(ctx context.Context, rdb *redis.Client, key, token string) (*lease, error) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return nil, errors.New("locked")
	}
	return &lease{rdb: rdb, key: key}, nil
}

func (l *lease) Release(ctx context.Context) error {
	return l.rdb.Del(ctx, l.key).Err() // want `lock l.key is deleted with DEL without checking`
}

// Negative: a cache entry keeps its key the same way, but was never set NX.
type entry struct {
	rdb *redis.Client
	key string
}

func put(ctx context.Context, rdb *redis.Client, key string) *entry {
	rdb.Set(ctx, key, "v", time.Hour)
	return &entry{rdb: rdb, key: key}
}

func (e *entry) Evict(ctx context.Context) { e.rdb.Del(ctx, e.key) }
