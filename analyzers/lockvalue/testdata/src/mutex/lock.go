package mutex

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.value, m.ttl).Result()
}

func (o *Owner) Lock(ctx context.Context) bool {
	return o.rdb.SetNX(ctx, o.key, o.owner, 0).Val()
}

func (s *Safe) Lock(ctx context.Context) bool {
	return s.rdb.SetNX(ctx, s.key, s.token, 0).Val()
}

// TryLock stores the same constructor-made value: the defect is reported
// once, at Lock.
func (m *Mutex) TryLock(ctx context.Context) bool {
	return m.rdb.SetArgs(ctx, m.key, m.value, redis.SetArgs{Mode: "NX", TTL: m.ttl}).Err() == nil
}

func (l *Leader) Lock(ctx context.Context) bool {
	return l.rdb.SetNX(ctx, l.key, l.id, 0).Val()
}

func (l *Leader) Unlock(ctx context.Context) {
	l.rdb.Eval(ctx, unlockSrc, []string{l.key}, l.id)
}

func (t *Ticket) Lock(ctx context.Context) bool {
	return t.rdb.SetNX(ctx, t.key, t.id, 0).Val()
}
