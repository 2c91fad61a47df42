package lease

import (
	"context"
	"math/rand"
	"time"
)

// Extender is a library mutex behind the project's own interface.
type Extender interface {
	Extend() (bool, error)
}

// JitterLock renews through a helper; its keep-alive waits a jittered
// interval computed by a func value.
type JitterLock struct {
	Extender
	ttl    time.Duration
	onLost func()
}

func (l *JitterLock) extend() bool {
	ok, err := l.Extender.Extend()
	if err != nil || !ok {
		return false
	}
	return true
}

// The failure branch only returns; the success branch calls nextWait,
// which computes a wait and tells nobody.
func (l *JitterLock) keepAlive(ctx context.Context) {
	nextWait := func() time.Duration { return l.ttl/3 - time.Duration(rand.Int63n(int64(l.ttl/15))) }
	timer := time.NewTimer(nextWait())
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
			if ok := l.extend(); !ok { // want `this keep-alive renews with JitterLock.extend but drops the outcome`
				return
			} else {
				timer.Reset(nextWait())
			}
		}
	}
}

// The failure branch calls the holder's callback: told.
func (l *JitterLock) keepAliveTold(ctx context.Context) {
	nextWait := func() time.Duration { return l.ttl / 3 }
	timer := time.NewTimer(nextWait())
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
			if ok := l.extend(); !ok {
				l.onLost()
				return
			}
			timer.Reset(nextWait())
		}
	}
}

func (l *JitterLock) Lock(ctx context.Context) {
	go l.keepAlive(ctx)
	go l.keepAliveTold(ctx)
}
