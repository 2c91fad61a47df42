// Package kvlock takes locks through cachekv: the caller's TTL argument
// decides whether the lock expires.
package kvlock

import (
	"time"

	"cachekv"
)

type Lock struct {
	m   *cachekv.Manager
	key string
}

func (l *Lock) TryLock() bool {
	return l.m.SetNX("lock:"+l.key, 1, 0) == nil // want `lock "lock:" \+ l.key is acquired with SET NX \(in Manager.SetNX at cachekv.go:18\) without a TTL`
}

func (l *Lock) Unlock() {
	l.m.Del("lock:" + l.key)
}

// Lease passes a real TTL: it expires.
type Lease struct {
	m   *cachekv.Manager
	key string
}

func (l *Lease) TryLock() bool {
	return l.m.SetNX("lease:"+l.key, 1, 30*time.Second) == nil
}

func (l *Lease) Unlock() {
	l.m.Del("lease:" + l.key)
}

// Slot passes its caller's TTL on: unknown here, so silent.
type Slot struct {
	m   *cachekv.Manager
	key string
}

func (s *Slot) TryLock(ttl time.Duration) bool {
	return s.m.SetNX("slot:"+s.key, 1, ttl) == nil
}

func (s *Slot) Unlock() {
	s.m.Del("slot:" + s.key)
}

// Claim never expires on purpose, and says so in its name.
type Claim struct {
	m   *cachekv.Manager
	key string
}

func (c *Claim) LockForever() bool {
	return c.m.SetNX("claim:lock:"+c.key, 1, 0) == nil
}

func (c *Claim) Unlock() {
	c.m.Del("claim:lock:" + c.key)
}
