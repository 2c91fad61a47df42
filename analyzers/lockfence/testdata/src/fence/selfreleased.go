package fence

import (
	"context"
	"time"
)

// A helper that takes the lock and gives it back before it returns is a
// critical section of its own: its caller does not hold the lock after
// the call, so the caller's later writes are no protected writes. The
// write inside the helper is.
func dispatchLoop(ctx context.Context, ids []string, token string) {
	for _, id := range ids {
		runDispatch(ctx, id, token)
		db.ExecContext(ctx, "UPDATE queue SET polled_at = now() WHERE id = ?", id)
	}
}

func runDispatch(ctx context.Context, id, token string) {
	key := "lock:dispatch:" + id
	if !rdb.SetNX(ctx, key, token, 5*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, key)
	db.ExecContext(ctx, "UPDATE calls SET agent = ? WHERE id = ?", token, id) // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token`
}

// The same through two helpers, the release in the inner one on every
// path and not deferred.
func fireLoop(ctx context.Context, ids []string, token string) {
	for _, id := range ids {
		tryFire(ctx, id, token)
		db.ExecContext(ctx, "UPDATE callbacks SET polled_at = now() WHERE id = ?", id)
	}
}

func tryFire(ctx context.Context, id, token string) {
	key := "lock:fire:" + id
	if err := fire(ctx, id, token, key); err != nil {
		rdb.Del(ctx, key)
		return
	}
	rdb.Del(ctx, key)
}

func fire(ctx context.Context, id, token, key string) error {
	if !rdb.SetNX(ctx, key, token, 5*time.Second).Val() {
		return context.Canceled
	}
	// Under the lock, but not reported yet: a section whose release is
	// in the caller is not followed into the helper that acquires.
	_, err := db.ExecContext(ctx, "UPDATE callbacks SET fired = 1 WHERE id = ?", id)
	return err
}

// An acquire helper that deletes only when setting up the lock failed
// hands the lock to its caller: the caller's write is under it.
func tryLockOrder(ctx context.Context, id, token string) bool {
	key := "lock:order2:" + id
	if !rdb.SetNX(ctx, key, token, 5*time.Second).Val() {
		return false
	}
	if ctx.Err() != nil {
		rdb.Del(ctx, key)
		return false
	}
	return true
}

func payOrder(ctx context.Context, id, token string) {
	if !tryLockOrder(ctx, id, token) {
		return
	}
	db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = ?", id) // want `DB.ExecContext under lock`
}

// Mutually recursive helpers (deduct, and on a miss take the lock and
// deduct again): a summary leads back into itself, and the analysis must
// still end.
func deduct(ctx context.Context, id string, n int) error {
	if n > 1 {
		return nil
	}
	return safeDeduct(ctx, id, n)
}

func safeDeduct(ctx context.Context, id string, n int) error {
	key := "lock:deduct:" + id
	if !rdb.SetNX(ctx, key, 1, 30*time.Second).Val() {
		return deduct(ctx, id, n+1)
	}
	defer rdb.Del(ctx, key)
	db.ExecContext(ctx, "UPDATE stock SET n = n - 1 WHERE id = ?", id) // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token`
	return deduct(ctx, id, n+1)
}
