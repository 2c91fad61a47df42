package result

import (
	"context"
	"fmt"
	"log"
)

// MarkProcessing returns the NX outcome through variables.
func MarkProcessing(ctx context.Context, id uint64) (bool, error) { // want MarkProcessing:`returns the outcome of SetNX at marker.go:12`
	key := fmt.Sprintf("importsync:processing:%d", id)
	res, err := rdb.SetNX(ctx, key, "1", 0).Result()
	if err != nil {
		return false, err
	}
	return res, nil
}

func MarkProcessed(ctx context.Context, id uint64) error {
	return rdb.Del(ctx, fmt.Sprintf("importsync:processing:%d", id)).Err()
}

func importGuild(ctx context.Context, id uint64) {
	if _, err := MarkProcessing(ctx, id); err != nil { // want `only the error of result.MarkProcessing \(SetNX at marker.go:\d+\) is checked`
		log.Println(err)
		return
	}
	defer MarkProcessed(ctx, id)
	process()
}

func importGuildChecked(ctx context.Context, id uint64) {
	ok, err := MarkProcessing(ctx, id)
	if err != nil || !ok {
		return
	}
	defer MarkProcessed(ctx, id)
	process()
}
