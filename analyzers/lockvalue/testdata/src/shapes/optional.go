package shapes

import (
	"context"
	"time"
)

// ConcurrentLock stores 1 unless its caller passes a value: most callers
// do not.
func ConcurrentLock(ctx context.Context, key string, args ...interface{}) bool { // want ConcurrentLock:`weak value: acquires with the constant 1 \(unless the caller passes a value\)`
	var value interface{} = 1
	if len(args) == 1 {
		value = args[0]
	}
	return rdb.SetNX(ctx, "concurrent:lock:"+key, value, time.Minute).Val() // want `lock "concurrent:lock:" \+ key stores the constant 1 \(unless the caller passes a value\) as its value`
}

func ConcurrentUnlock(ctx context.Context, key string) {
	rdb.Del(ctx, "concurrent:lock:"+key)
}

// OwnedLock takes the value from its caller, always.
func OwnedLock(ctx context.Context, key string, owner interface{}) bool {
	value := owner
	return rdb.SetNX(ctx, "owned:lock:"+key, value, time.Minute).Val()
}

func OwnedUnlock(ctx context.Context, key string) {
	rdb.Del(ctx, "owned:lock:"+key)
}
