package fence

import (
	"context"
	"time"

	"liblock"
)

func projectLockType(ctx context.Context, id string) error {
	l := liblock.New(ctx, rl, "order:"+id)
	if !l.TryLock(10 * time.Second) {
		return nil
	}
	defer l.Unlock()
	_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = ?", id) // want `database/sql DB.ExecContext under a lock \(Lock.TryLock \(redislock Client.Obtain\)\) carries no fencing token`
	return err
}

// Near misses: the failure branch, and writes after the release.
func projectLockTypeFailed(ctx context.Context, id string) error {
	l := liblock.New(ctx, rl, "order:"+id)
	if ok := l.TryLock(10 * time.Second); !ok {
		_, err := db.ExecContext(ctx, "INSERT INTO lock_misses (id) VALUES (?)", id)
		return err
	}
	l.Unlock()
	_, err := db.ExecContext(ctx, "UPDATE orders SET seen = 1 WHERE id = ?", id)
	return err
}

func fetchedLock(ctx context.Context, chain string) error {
	lock, err := liblock.Fetch(ctx, rl, chain)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE utxos SET spent = 1 WHERE chain = ?", chain) // want `database/sql DB.ExecContext under a lock \(liblock.Fetch \(redislock Client.Obtain\)\) carries no fencing token`
	return err
}

func fetchedLockVar(ctx context.Context, chain string) error {
	lock, err := liblock.FetchVar(ctx, rl, chain)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE utxos SET spent = 1 WHERE chain = ?", chain) // want `database/sql DB.ExecContext under a lock \(liblock.FetchVar \(redislock Client.Obtain\)\) carries no fencing token`
	lock.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE utxos SET seen = 1 WHERE chain = ?", chain)
	return err
}

func projectMutex(ctx context.Context, m *liblock.Mutex, id string) error {
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := db.ExecContext(ctx, "DELETE FROM carts WHERE id = ?", id) // want `database/sql DB.ExecContext under a lock \(Mutex.Lock \(redsync Mutex.Lock\)\) carries no fencing token`
	return err
}

// Near miss: the helper released its own lock before it returned.
func guardedHelper(ctx context.Context, id string) error {
	if ok, err := liblock.Guarded(ctx, rl, "g:"+id); err != nil || !ok {
		return err
	}
	_, err := db.ExecContext(ctx, "DELETE FROM carts WHERE id = ?", id)
	return err
}
