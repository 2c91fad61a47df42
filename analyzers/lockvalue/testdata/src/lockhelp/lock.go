// Package lockhelp hides the lock value inside its helpers; Lock and
// Unlock live in different files, so only callers see the lock used.
package lockhelp

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func Lock(ctx context.Context, rdb redis.Cmdable, key string) bool { // want Lock:`weak value: acquires with the constant "locked"`
	return rdb.SetNX(ctx, key, "locked", time.Minute).Val()
}

// TryLock makes a unique value: no fact.
func TryLock(ctx context.Context, rdb redis.Cmdable, key string) (string, bool) {
	tok := uuid.NewString()
	return tok, rdb.SetNX(ctx, key, tok, time.Minute).Val()
}

// Obtain returns the value it stored: a timestamp.
func Obtain(ctx context.Context, rdb redis.Cmdable, key string) (string, bool) { // want Obtain:`weak value: result 0 is a timestamp, acquires with a timestamp`
	tok := strconv.FormatInt(time.Now().UnixNano(), 10)
	return tok, rdb.SetNX(ctx, key, tok, time.Minute).Val()
}
