package value

import (
	"context"
	"os"
)

// takeLock stores the process ID under the key its caller names.
func takeLock(ctx context.Context, key string) bool {
	return rdb.SetNX(ctx, key, os.Getpid(), ttl).Val()
}

func job(ctx context.Context, id string) {
	if !takeLock(ctx, "job:"+id) { // want `lock "job:" \+ id is acquired with SET NX \(in value.takeLock at helper.go:10\), which stores the process ID as its value`
		return
	}
	defer rdb.Del(ctx, "job:"+id)
}
