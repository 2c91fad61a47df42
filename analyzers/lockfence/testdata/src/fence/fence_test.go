package fence

import (
	"context"
	"testing"
	"time"
)

// Tests take locks and write on purpose; no diagnostics here.
func TestLocked(t *testing.T) {
	ctx := context.Background()
	if !rdb.SetNX(ctx, "lock:test", "t", time.Second).Val() {
		t.Fatal("not acquired")
	}
	defer rdb.Del(ctx, "lock:test")
	db.ExecContext(ctx, "DELETE FROM orders")
}
