package billing

import (
	"context"
	"time"

	"store"
)

func Charge(ctx context.Context, kv store.KV, invoice, token string) error {
	ok, err := kv.PutIfAbsent(ctx, "charge:"+invoice, token, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer kv.Remove(ctx, "charge:"+invoice) // want `lock "charge:" \+ invoice is deleted with DEL \(in KV.Remove at store.go:26\) without checking`
	return nil
}

// Negative: the same interface used as a cache.
func Forget(ctx context.Context, kv store.KV, id string) error {
	return kv.Remove(ctx, "invoice:"+id)
}
