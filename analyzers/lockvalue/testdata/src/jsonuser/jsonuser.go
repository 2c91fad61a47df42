package jsonuser

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"jsoncache"
)

type Jobs struct{ c *jsoncache.Cache }

func (j *Jobs) Once(ctx context.Context, id string, work func()) {
	if ok, err := j.c.SetNX(ctx, "job:"+id, "1", time.Minute); err != nil || !ok { // want `lock "job:" \+ id stores the constant "1" as its value`
		return
	}
	defer j.c.Del(ctx, "job:"+id)
	work()
}

// A token per acquisition, marshalled: unique.
func (j *Jobs) Owned(ctx context.Context, id string, work func()) {
	if ok, err := j.c.SetNX(ctx, "owned:"+id, uuid.NewString(), time.Minute); err != nil || !ok {
		return
	}
	defer j.c.Del(ctx, "owned:"+id)
	work()
}

// The stored value adds the node's name: what it is depends on the node.
func (j *Jobs) Tagged(ctx context.Context, id string, work func()) {
	if ok, err := j.c.Tagged(ctx, "tagged:"+id, "1", time.Minute); err != nil || !ok {
		return
	}
	defer j.c.Del(ctx, "tagged:"+id)
	work()
}

// The cache's codec marshals the constant: still one value for all.
func (j *Jobs) Codec(ctx context.Context, id string, work func()) {
	if ok, err := j.c.SetNXCodec(ctx, "codec:"+id, "1", time.Minute); err != nil || !ok { // want `lock "codec:" \+ id stores the constant "1" as its value`
		return
	}
	defer j.c.Del(ctx, "codec:"+id)
	work()
}

// Sealing adds a nonce: the stored value differs per holder.
func (j *Jobs) Sealed(ctx context.Context, id string, work func()) {
	if ok, err := j.c.SetNXSealed(ctx, "sealed:"+id, "1", time.Minute); err != nil || !ok {
		return
	}
	defer j.c.Del(ctx, "sealed:"+id)
	work()
}

// held is marshalled once, at package init, from a constant: reported
// where it is made, as a package variable set from the clock is.
var held, _ = json.Marshal(true) // want `lock "held:" \+ id stores the constant true as its value`

// The package variable set once from a constant is that constant.
func (j *Jobs) Held(ctx context.Context, id string, work func()) {
	if ok, err := j.c.SetNX(ctx, "held:"+id, held, time.Minute); err != nil || !ok {
		return
	}
	defer j.c.Del(ctx, "held:"+id)
	work()
}

// A fresh token, marshalled: unique.
func (j *Jobs) HeldOwned(ctx context.Context, id string, work func()) {
	token, _ := json.Marshal(uuid.NewString())
	if ok, err := j.c.SetNX(ctx, "held:owned:"+id, token, time.Minute); err != nil || !ok {
		return
	}
	defer j.c.Del(ctx, "held:owned:"+id)
	work()
}
