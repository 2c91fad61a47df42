package gamesvc

import (
	"context"
	"database/sql"
	"time"

	"gamelock"
)

type Manager struct {
	lock gamelock.Lock
	db   *sql.DB
}

// The callback runs under the lock the interface's only implementation
// takes.
func (m *Manager) Settle(ctx context.Context, room string) error {
	return m.lock.WithLock(ctx, "game:"+room, 5*time.Second, func() error {
		_, err := m.db.ExecContext(ctx, "UPDATE rooms SET status = 3 WHERE id = ?", room) // want `database/sql DB.ExecContext under lock "lock:game:" \+ \* \(SET NX in Lock.WithLock\)`
		return err
	})
}

// Near miss: the callback only reads.
func (m *Manager) Peek(ctx context.Context, room string) error {
	return m.lock.WithLock(ctx, "game:"+room, 5*time.Second, func() error {
		var n int
		return m.db.QueryRowContext(ctx, "SELECT status FROM rooms WHERE id = ?", room).Scan(&n)
	})
}
