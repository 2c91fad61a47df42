// Package optkv declares the store its users lock with; the go-redis
// implementation lives elsewhere, so the directive says what it is.
package optkv

import (
	"context"
	"time"
)

//locklint:client go-redis
type KV interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Get(ctx context.Context, key string) (string, error)
	Del(ctx context.Context, keys ...string) error
}

// Store has the same methods without the directive: it may be anything.
type Store interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Del(ctx context.Context, keys ...string) error
}
