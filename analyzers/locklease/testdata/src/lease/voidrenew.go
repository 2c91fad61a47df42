package lease

import (
	"context"
	"time"
)

// ttlLock renews through a helper that answers whether the key was still
// its own.
type ttlLock struct {
	l      *Lock
	cancel context.CancelFunc
}

func (t *ttlLock) extends(ctx context.Context) (bool, error) {
	n, err := extendScript.Run(ctx, t.l.rdb, []string{t.l.key}, t.l.token, 30000).Int()
	return n == 1, err
}

// Extend is an interface's fire-and-forget method: nobody can learn that
// the renewal found the lock gone.
func (t *ttlLock) Extend(ctx context.Context) {
	_, _ = t.extends(ctx) // want `Extend throws away the whole outcome of EVAL \(in ttlLock.extends at .*\) of lock .* and returns nothing`
}

// The script sent directly, as a statement.
func (t *ttlLock) Touch(ctx context.Context) {
	extendScript.Run(ctx, t.l.rdb, []string{t.l.key}, t.l.token, 30000) // want `Touch throws away the whole outcome of EVAL of lock .* and returns nothing`
}

// Near miss: a failed renewal cancels the work.
func (t *ttlLock) Renew(ctx context.Context) {
	if ok, err := t.extends(ctx); !ok || err != nil {
		t.cancel()
	}
}

// Near miss: a bare EXPIRE checks no owner (lockrenew reports it).
func (t *ttlLock) Refresh(ctx context.Context) {
	t.l.rdb.Expire(ctx, t.l.key, 30*time.Second)
}
