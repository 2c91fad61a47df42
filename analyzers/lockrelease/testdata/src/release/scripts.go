package release

import (
	"context"
	"embed"
	"time"

	"github.com/redis/go-redis/v9"
)

//go:embed lua/*.lua
var luaFS embed.FS

// Scripts kept in struct fields, set once in a constructor, loaded from an
// embedded file system.
type Locker struct {
	rdb     *redis.Client
	release *redis.Script
	blind   *redis.Script
}

func NewLocker(rdb *redis.Client) *Locker {
	src, _ := luaFS.ReadFile("lua/release.lua")
	blind, _ := luaFS.ReadFile("lua/blind.lua")
	return &Locker{rdb: rdb, release: redis.NewScript(string(src)), blind: redis.NewScript(string(blind))}
}

func (l *Locker) Lock(ctx context.Context, key, token string) bool {
	return l.rdb.SetNX(ctx, key, token, time.Minute).Val()
}

func (l *Locker) Unlock(ctx context.Context, key, token string) error {
	return l.release.Run(ctx, l.rdb, []string{key}, token).Err()
}

func (l *Locker) UnlockQuick(ctx context.Context, key, token string) error {
	return l.blind.Run(ctx, l.rdb, []string{key}, token).Err() // want `the Lua script deletes lock key without comparing its value`
}

// ForceUnlock breaks the lock whoever holds it: an override, on purpose.
func (l *Locker) ForceUnlock(ctx context.Context, key string) error {
	return l.rdb.Del(ctx, key).Err()
}

func useLocker(ctx context.Context, l *Locker, token string) {
	if l.Lock(ctx, "batch", token) {
		defer l.Unlock(ctx, "batch", token)
	}
	if l.Lock(ctx, "batch2", token) {
		defer l.UnlockQuick(ctx, "batch2", token)
	}
}
