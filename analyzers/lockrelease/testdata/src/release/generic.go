package release

import (
	"context"
	"fmt"
	"time"
)

// Negative: keys that share only a generic format are not one lock.
func setGeneric(ctx context.Context, prefix, id, token string) {
	rdb.SetNX(ctx, fmt.Sprintf("%s:%s", prefix, id), token, time.Minute)
}

func delGeneric(ctx context.Context, prefix, id string) {
	rdb.Del(ctx, fmt.Sprintf("%s:%s", prefix, id))
}

// A generic helper: its instances share one summary.
func releaseAny[K ~string](ctx context.Context, key K) {
	rdb.Del(ctx, string(key)) // want `lock "gen" is deleted with DEL without checking`
}

func useGeneric(ctx context.Context, token string) {
	rdb.SetNX(ctx, "gen", token, time.Minute)
	releaseAny(ctx, "gen")
}
