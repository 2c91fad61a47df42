package service

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"lockutil/locker"
)

func Nightly(ctx context.Context, rdb *redis.Client, id, token string) {
	if !locker.Acquire(ctx, rdb, "nightly:"+id, token) { // want `lock "nightly:" \+ id is acquired with SET NX \(in locker.Acquire at locker.go:12\) without a TTL`
		return
	}
	defer locker.Release(ctx, rdb, "nightly:"+id)
}

func Hourly(ctx context.Context, rdb *redis.Client, token string) {
	if locker.Acquire(ctx, rdb, "hourly", token) { // want `lock "hourly" is acquired with SET NX \(in locker.Acquire at locker.go:12\) and given its TTL by a separate EXPIRE`
		rdb.Expire(ctx, "hourly", time.Hour)
	}
}
