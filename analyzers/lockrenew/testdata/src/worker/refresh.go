package worker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func (l *Lock) Refresh(ctx context.Context) error {
	return l.rdb.Expire(ctx, l.key, l.ttl).Err() // want `lock l.key is renewed with EXPIRE without checking that this holder still owns it`
}

func (l *Lock) TryRefresh(ctx context.Context) (bool, error) {
	return l.rdb.PExpire(ctx, l.key, l.ttl).Result() // want `lock l.key is renewed with PEXPIRE without checking`
}

func (l *Lock) RefreshFor(ctx context.Context, d time.Duration) error {
	err := l.rdb.PExpire(ctx, l.key, d).Err() // want `lock l.key is renewed with PEXPIRE without checking`
	if err != nil {
		return err
	}
	return nil
}

// Re-setting the holder's own token with a TTL overwrites a new holder.
func (l *Lock) Reset(ctx context.Context) error {
	return l.rdb.Set(ctx, l.key, l.token, l.ttl).Err() // want `lock l.key is renewed with SET, which overwrites the key whoever holds it`
}

func (l *Lock) RefreshXX(ctx context.Context) bool {
	return l.rdb.SetXX(ctx, l.key, l.token, l.ttl).Val() // want `lock l.key is renewed with SET XX`
}

// A renewal in a transaction pipeline without a WATCH compare: reported,
// no fix (the command runs at Exec).
func (l *Lock) RefreshTx(ctx context.Context) error {
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.PExpire(ctx, l.key, l.ttl) // want `lock l.key is renewed with PEXPIRE without checking`
		return nil
	})
	return err
}

// Negative: a plain SET of another value (an admin override) is no
// renewal.
func (l *Lock) Steal(ctx context.Context) error {
	return l.rdb.Set(ctx, l.key, "admin", l.ttl).Err()
}
