// Package elect keeps a leader key through kvclient: renewal re-SETs the
// key after reading it, in two round trips.
package elect

import (
	"context"
	"time"

	"kvclient"
)

type Elector struct {
	kv  kvclient.Client
	key string
	id  string
	ttl time.Duration
}

func (e *Elector) TryAcquire(ctx context.Context) bool {
	ok, err := e.kv.SetNX(ctx, e.key, e.id, e.ttl)
	return err == nil && ok
}

func (e *Elector) Renew(ctx context.Context) bool {
	cur, err := e.kv.Get(ctx, e.key)
	if err != nil || cur != e.id {
		return false
	}
	return e.kv.Set(ctx, e.key, e.id, e.ttl) == nil // want `lock e.key is read with GET and then renewed with a separate SET \(in Client.Set at kvclient.go:28\)`
}

// Publish writes another value under the same key with a TTL: a status
// update, not a renewal of this holder's lock.
func (e *Elector) Publish(ctx context.Context, status string) {
	cur, _ := e.kv.Get(ctx, e.key)
	if cur == e.id {
		_ = e.kv.Set(ctx, e.key+":status", status, e.ttl)
	}
}

func (e *Elector) Resign(ctx context.Context) {
	_ = e.kv.Del(ctx, e.key)
}
