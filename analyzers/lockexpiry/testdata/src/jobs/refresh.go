package jobs

import (
	"context"
	"time"
)

// refresh is named like a renewal; it is where the TTL is first set.
func (m *Mutex) refresh(ctx context.Context) {
	m.rdb.Expire(ctx, m.key, time.Minute)
}
