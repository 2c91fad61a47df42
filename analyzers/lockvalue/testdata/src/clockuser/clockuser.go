package clockuser

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"clock"
)

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

func Pay(ctx context.Context, rdb *redis.Client, id string) { // want Pay:`weak value: acquires with a timestamp`
	if !rdb.SetNX(ctx, "pay:"+id, clock.UnixMillis(), time.Minute).Val() { // want `lock "pay:" \+ id stores a timestamp as its value`
		return
	}
	defer rdb.Del(ctx, "pay:"+id)
}

func Ship(ctx context.Context, rdb *redis.Client, id string) {
	owner := clock.Owner()
	if !rdb.SetNX(ctx, "ship:"+id, owner, time.Minute).Val() {
		return
	}
	defer release.Run(ctx, rdb, []string{"ship:" + id}, owner)
}

func Pack(ctx context.Context, rdb *redis.Client, id string) { // want Pack:`weak value: acquires with the constant "worker"`
	if !rdb.SetNX(ctx, "pack:"+id, clock.Fixed(), time.Minute).Val() { // want `lock "pack:" \+ id stores the constant "worker" as its value`
		return
	}
	defer rdb.Del(ctx, "pack:"+id)
}
