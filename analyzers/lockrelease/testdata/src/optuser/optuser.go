package optuser

import (
	"context"
	"time"

	"optkv"
)

type Locker struct {
	kv    optkv.KV
	token string
}

func (l *Locker) Lock(ctx context.Context, name string) bool {
	ok, err := l.kv.SetNX(ctx, "lock:"+name, l.token, time.Minute)
	return err == nil && ok
}

func (l *Locker) Unlock(ctx context.Context, name string) error {
	return l.kv.Del(ctx, "lock:"+name) // want `lock "lock:" \+ name is deleted with DEL without checking`
}

type Other struct {
	st    optkv.Store
	token string
}

func (o *Other) Lock(ctx context.Context, name string) bool {
	ok, err := o.st.SetNX(ctx, "lock:"+name, o.token, time.Minute)
	return err == nil && ok
}

func (o *Other) Unlock(ctx context.Context, name string) error {
	return o.st.Del(ctx, "lock:"+name)
}
