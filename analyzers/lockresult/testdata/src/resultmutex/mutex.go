// Package resultmutex is a project's own lock type, split over files.
package resultmutex

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
}

func New(rdb redis.UniversalClient, name string) *Mutex {
	return &Mutex{rdb: rdb, key: "mutex:" + name, token: newToken()}
}

func newToken() string { return "t" }

// Lock drops the outcome: every caller believes it holds the lock.
func (m *Mutex) Lock(ctx context.Context) {
	m.rdb.SetNX(ctx, m.key, m.token, 10*time.Second) // want `the result of SetNX of m.key is discarded`
}

// TryLock hands the outcome back: judged at its callers.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) { // want TryLock:"returns the outcome of SetNX at mutex.go:30"
	return m.rdb.SetNX(ctx, m.key, m.token, 10*time.Second).Result()
}
