package shapes

import (
	"context"

	goredis "github.com/redis/go-redis/v9"

	"luaexec"
)

// RWMutex keeps its writer in hash field "w", through luaexec.Exec.
type RWMutex struct {
	rdb *goredis.Client
	Key string
	Val string
}

func (rw *RWMutex) WLock(ctx context.Context) error {
	return luaexec.Exec(ctx, rw.rdb, rw.Key, luaexec.WLock, rw.Val, 30)
}

func (rw *RWMutex) WUnlock(ctx context.Context) error {
	return luaexec.Exec(ctx, rw.rdb, rw.Key, luaexec.WUnlock, rw.Val) // want `the Lua script \(in luaexec.Exec at luaexec.go:\d+\) deletes lock rw.Key without comparing`
}

// SafeRWMutex releases only its own writer field.
type SafeRWMutex struct {
	rdb *goredis.Client
	Key string
	Val string
}

func (rw *SafeRWMutex) WLock(ctx context.Context) error {
	return luaexec.Exec(ctx, rw.rdb, rw.Key, luaexec.WLock, rw.Val, 30)
}

func (rw *SafeRWMutex) WUnlock(ctx context.Context) error {
	return luaexec.Exec(ctx, rw.rdb, rw.Key, luaexec.WUnlockOwned, rw.Val)
}
