package unitsv8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

type Store struct {
	rdb redis.UniversalClient
	ttl time.Duration
}

func (s *Store) Lock(ctx context.Context, key, token string) (bool, error) {
	return s.rdb.SetNX(ctx, key, token, 15).Result() // want `SetNX takes a time.Duration, so TTL 15 is 15 nanoseconds: go-redis v8 sends PX 1 \(it rounds any TTL under a millisecond up to 1 ms\)`
}

func (s *Store) Touch(ctx context.Context, key string) error {
	return s.rdb.Expire(ctx, key, 60).Err() // want `go-redis v8 sends EXPIRE 1`
}

func (s *Store) Raw(ctx context.Context, key, token string) error {
	return s.rdb.Do(ctx, "set", key, token, "px", s.ttl, "nx").Err() // want `PX takes an integer number of milliseconds, but s.ttl is a time.Duration: go-redis v8 before v8.11.5 cannot encode a time.Duration argument \(the command fails\), and v8.11.5 sends its nanosecond count`
}
