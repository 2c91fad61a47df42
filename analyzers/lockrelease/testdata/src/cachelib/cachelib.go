// Package cachelib is a cache package with one locked call beside its
// data operations, every key made by the same namespace helper from a
// parameter.
package cachelib

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

func cacheKey(k string) string { return "app:" + k }

func Set(rds redis.Conn, key, v string, expire int64) {
	key = cacheKey(key)
	_, _ = rds.Do("SETEX", key, expire, v)
}

// LockCall takes the lock, runs fn and gives the lock back itself: its
// own DEL is the release.
func LockCall(rds redis.Conn, key string, expire int64, fn func() error) error {
	key = cacheKey(key)
	taken, err := rds.Do("SET", key, "1", "EX", expire, "NX")
	if err != nil {
		return err
	}
	if taken == nil {
		return errBusy
	}
	if err := fn(); err != nil {
		return err
	}
	_, _ = rds.Do("DEL", key) // want `lock key is deleted with DEL without checking that this holder still owns it`
	return nil
}

// Near miss: Remove deletes a cache entry. LockCall hands no lock to its
// caller, so Remove is not its other half.
func Remove(rds redis.Conn, key string) {
	key = cacheKey(key)
	_, _ = rds.Do("DEL", key)
}

// A lock API whose acquire leaves the lock to its caller: Remove's
// sibling here is its release.
type Slots struct{ rds redis.Conn }

func (s *Slots) LockSlot(key string, expire int64) bool {
	taken, err := s.rds.Do("SET", cacheKey(key), "1", "EX", expire, "NX")
	return err == nil && taken != nil
}

func (s *Slots) RemoveSlot(key string) {
	_, _ = s.rds.Do("DEL", cacheKey(key)) // want `lock cacheKey\(key\) is deleted with DEL without checking that this holder still owns it`
}
