package jobs

import "context"

func (m *Mutex) Unlock(ctx context.Context) {
	m.rdb.Del(ctx, m.key)
}
