package jobs

import "context"

func (m *Mutex) Lock(ctx context.Context) bool {
	ok := m.rdb.SetNX(ctx, m.key, m.token, 0).Val() // want `lock m.key is acquired with SET NX and given its TTL by a separate EXPIRE \(in Mutex.refresh at refresh.go:10\)`
	if ok {
		m.refresh(ctx)
	}
	return ok
}
