package resultmutex

import "context"

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.key).Err()
}
