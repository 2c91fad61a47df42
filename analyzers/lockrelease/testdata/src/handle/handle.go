// Package handle returns the lock as a value built by a constructor of
// its own; the value's methods release it.
package handle

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Client struct{ rdb *redis.Client }

type Handle struct {
	rdb        *redis.Client
	key, token string
}

func newHandle(rdb *redis.Client, key, token string) *Handle {
	return &Handle{rdb: rdb, key: key, token: token}
}

var errHeld = errors.New("held by another owner")

func (c *Client) Acquire(ctx context.Context, key string) (*Handle, error) {
	token := uuid.NewString()
	ok, err := c.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errHeld
	}
	return newHandle(c.rdb, key, token), nil
}

func (h *Handle) Release(ctx context.Context) error {
	return h.rdb.Del(ctx, h.key).Err() // want `lock h\.key is deleted with DEL without checking`
}

// Entry is a cached value, built by a constructor too but never from a
// lock's key: deleting it is cache invalidation.
type Entry struct {
	rdb *redis.Client
	key string
}

func newEntry(rdb *redis.Client, key string) *Entry { return &Entry{rdb: rdb, key: key} }

func (c *Client) Cached(ctx context.Context, key string) (*Entry, error) {
	if err := c.rdb.Set(ctx, key, "v", time.Hour).Err(); err != nil {
		return nil, err
	}
	return newEntry(c.rdb, key), nil
}

func (e *Entry) Invalidate(ctx context.Context) error {
	return e.rdb.Del(ctx, e.key).Err()
}
