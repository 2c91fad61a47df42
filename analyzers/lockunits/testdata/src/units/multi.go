package units

import (
	"context"

	"unitsconf"
)

func fromOtherPackage(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, unitsconf.LockTTL) // want `SetNX takes a time.Duration, so TTL unitsconf.LockTTL is 30 nanoseconds`
	rdb.Expire(ctx, key, unitsconf.RenewEvery)
	rdb.Set(ctx, "cache:"+key, token, unitsconf.CacheTTL)
}
