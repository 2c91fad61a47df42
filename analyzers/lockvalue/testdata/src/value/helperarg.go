package value

import (
	"context"
	"fmt"
	"time"
)

// acquireWith stores the value its caller makes.
func acquireWith(ctx context.Context, key, value string) (bool, error) {
	return rdb.SetNX(ctx, key, value, ttl).Result()
}

func releaseWith(ctx context.Context, key, value string) {
	if rdb.Get(ctx, key).Val() == value {
		rdb.Del(ctx, key)
	}
}

// The value is made here, outside the function that acquires: the report
// is where it is made, the line to change.
func withLock(ctx context.Context, key string, fn func()) error {
	value := fmt.Sprintf("%d", time.Now().UnixNano()) // want `lock key stores a timestamp as its value`
	ok, err := acquireWith(ctx, key, value)
	if err != nil || !ok {
		return err
	}
	defer releaseWith(ctx, key, value)
	fn()
	return nil
}
