// Package cacheuser locks through kvbackends' interfaces, whose Redis
// implementations it does not see.
package cacheuser

import (
	"context"
	"time"

	"github.com/google/uuid"

	"kvbackends"
)

type Jobs struct{ cache kvbackends.Cache }

func (j *Jobs) Run(ctx context.Context, id string, work func()) error {
	ok, err := j.cache.SetNX(ctx, "job:"+id, uuid.NewString(), time.Minute)
	if err != nil || !ok {
		return err
	}
	work()
	return j.cache.Del(ctx, "job:"+id) // want `lock "job:" \+ id is deleted with DEL \(in Cache.Del at kvbackends.go:29\) without checking`
}

// Either tier may run: unknown, silent.
type Tiered struct{ t kvbackends.Tiers }

func (t *Tiered) Run(ctx context.Context, id string, work func()) error {
	ok, err := t.t.SetNX(ctx, "job:"+id, uuid.NewString(), time.Minute)
	if err != nil || !ok {
		return err
	}
	work()
	return t.t.Del(ctx, "job:"+id)
}

// A session is put and dropped, never taken with NX: no lock.
type Login struct{ s kvbackends.Sessions }

func (l *Login) Out(ctx context.Context, id string) error {
	if err := l.s.Put(ctx, id, "bye"); err != nil {
		return err
	}
	return l.s.Drop(ctx, id)
}
