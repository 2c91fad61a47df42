// Package kvstore is a project's Redis wrapper, in another package.
package kvstore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb *redis.Client }

// Put keeps the value without expiry: a store of record.
func (s *Store) Put(ctx context.Context, key string, v any) error {
	return s.rdb.Set(ctx, key, v, 0).Err()
}

// PutFor keeps the value for ttl: taken for a cache.
func (s *Store) PutFor(ctx context.Context, key string, v any, ttl time.Duration) error {
	return s.rdb.Set(ctx, key, v, ttl).Err()
}
