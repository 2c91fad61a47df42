// Package slots keeps each lock's owner in a map of a long-lived value,
// one slot per key, and releases with what the slot holds.
package slots

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

const unlockLua = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`

type tokenLocker struct {
	rdb    *redis.Client
	mu     sync.Mutex
	tokens map[string]string
}

func (l *tokenLocker) TryAcquire(ctx context.Context, key string) (bool, error) {
	token := newToken()
	ok, err := l.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return false, err
	}
	l.mu.Lock()
	l.tokens[key] = token
	l.mu.Unlock()
	return true, nil
}

func (l *tokenLocker) Release(ctx context.Context, key string) error {
	l.mu.Lock()
	token, ok := l.tokens[key]
	delete(l.tokens, key)
	l.mu.Unlock()
	if !ok {
		return nil
	}
	return l.rdb.Eval(ctx, unlockLua, []string{key}, token).Err() // want `this release checks the token found in l.tokens\[key\], one slot per key shared by every acquisition in the process`
}

// handles keeps redislock's handles by name.
type handles struct {
	client *redislock.Client
	mu     sync.Mutex
	held   map[string]*redislock.Lock
}

func (h *handles) Acquire(ctx context.Context, name string) error {
	lock, err := h.client.Obtain(ctx, name, time.Minute, nil)
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.held[name] = lock
	h.mu.Unlock()
	return nil
}

func (h *handles) take(name string) *redislock.Lock {
	h.mu.Lock()
	defer h.mu.Unlock()
	lock := h.held[name]
	if lock == nil {
		return nil
	}
	delete(h.held, name)
	return lock
}

func (h *handles) Release(ctx context.Context, name string) error {
	lock := h.take(name)
	if lock == nil {
		return errors.New("not held")
	}
	return lock.Release(ctx) // want `this release checks the lock found in h.held\[name\]`
}

var zeroLocks sync.Map

func acquireZero(store *zredis.Redis, key string) (bool, error) {
	lock := zredis.NewRedisLock(store, key)
	ok, err := lock.Acquire()
	if ok {
		zeroLocks.Store(key, lock)
	}
	return ok, err
}

func releaseZero(key string) {
	v, ok := zeroLocks.LoadAndDelete(key)
	if !ok {
		return
	}
	_, _ = v.(*zredis.RedisLock).Release() // want `this release checks the lock found in zeroLocks.LoadAndDelete\(key\)`
}

// Near misses.

// leases keeps tokens by lease id, one per acquisition: a lapsed
// holder's id still names its own token.
type leases struct {
	rdb    *redis.Client
	mu     sync.Mutex
	tokens map[string]string
	keys   map[string]string
}

func (l *leases) Acquire(ctx context.Context, key string) (string, error) {
	token := newToken()
	if err := l.rdb.SetNX(ctx, key, token, time.Minute).Err(); err != nil {
		return "", err
	}
	id := newToken()
	l.mu.Lock()
	l.tokens[id], l.keys[id] = token, key
	l.mu.Unlock()
	return id, nil
}

func (l *leases) Release(ctx context.Context, id string) error {
	l.mu.Lock()
	token, key := l.tokens[id], l.keys[id]
	l.mu.Unlock()
	return l.rdb.Eval(ctx, unlockLua, []string{key}, token).Err()
}

// guarded takes the token from a map local to the call: nothing is shared.
func guarded(ctx context.Context, rdb *redis.Client, keys []string) error {
	owned := map[string]string{}
	for _, k := range keys {
		t := newToken()
		if err := rdb.SetNX(ctx, k, t, time.Minute).Err(); err != nil {
			return err
		}
		owned[k] = t
	}
	for _, k := range keys {
		if err := rdb.Eval(ctx, unlockLua, []string{k}, owned[k]).Err(); err != nil {
			return err
		}
	}
	return nil
}

// byHandle releases the handle the caller kept: its own acquisition's.
func (h *handles) byHandle(ctx context.Context, lock *redislock.Lock) error {
	return lock.Release(ctx)
}

// storage keeps each handle with the cancel func of its renewal, by a
// key made from the name.
type storage struct {
	client *redislock.Client
	locks  sync.Map
}

type held struct {
	lock   *redislock.Lock
	cancel context.CancelFunc
}

func (s *storage) Lock(ctx context.Context, name string) error {
	key := "lock:" + name
	lock, err := s.client.Obtain(ctx, key, time.Minute, nil)
	if err != nil {
		return err
	}
	_, cancel := context.WithCancel(ctx)
	s.locks.Store(key, held{lock: lock, cancel: cancel})
	return nil
}

func (s *storage) Unlock(ctx context.Context, name string) error {
	key := "lock:" + name
	if v, loaded := s.locks.LoadAndDelete(key); loaded {
		if h, ok := v.(held); ok {
			h.cancel()
			return h.lock.Release(ctx) // want `this release checks the lock found in s.locks.LoadAndDelete\(key\)`
		}
	}
	return nil
}

// newToken returns a random lock token.
func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Near miss: the release checks that the slot still holds the caller's
// own acquisition before releasing it.
func (h *handles) releaseOwn(ctx context.Context, name string, own *redislock.Lock) error {
	h.mu.Lock()
	lock, ok := h.held[name]
	if !ok || lock != own {
		h.mu.Unlock()
		return nil
	}
	delete(h.held, name)
	h.mu.Unlock()
	return lock.Release(ctx)
}
