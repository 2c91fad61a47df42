package shapes

import (
	"context"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Slots pairs AcquireSlot with ClearSlot: a lock API by its names.
type Slots struct{ rdb goredis.Cmdable }

func (s *Slots) AcquireSlot(ctx context.Context, key string) bool {
	return s.rdb.SetNX(ctx, key, "busy", 5*time.Second).Val()
}

func (s *Slots) ClearSlot(ctx context.Context, key string) {
	s.rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking`
}

// Memo fills a value once and clears it on invalidation: nothing names a
// lock, so Clear is a cache operation.
type Memo struct{ rdb goredis.Cmdable }

func (m *Memo) FillOnce(ctx context.Context, key string) bool {
	return m.rdb.SetNX(ctx, key, time.Now().String(), time.Hour).Val()
}

func (m *Memo) Clear(ctx context.Context, key string) {
	m.rdb.Del(ctx, key)
}
