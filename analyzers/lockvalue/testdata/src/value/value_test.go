package value

import (
	"context"
	"testing"
)

// Tests set up lock keys with fixed values on purpose: no report here.
func TestFixedValue(t *testing.T) {
	ctx := context.Background()
	if !rdb.SetNX(ctx, "lock:test", "1", ttl).Val() {
		t.Fatal("not acquired")
	}
	rdb.Del(ctx, "lock:test")
}
