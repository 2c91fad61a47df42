package units

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func rueidisLock(ctx context.Context, c rueidis.Client, key, token string, ttl time.Duration) error {
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Ex(10).Build()).Error(); err != nil { // want `Ex takes a time.Duration, so TTL 10 is 10 nanoseconds: rueidis Ex truncates it to whole seconds and sends EX 0, which Redis rejects \(invalid expire time\); write 10\*time.Second; or use safelock`
		return err
	}
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Ex(500*time.Millisecond).Build()).Error(); err != nil { // want `TTL 500\*time.Millisecond: rueidis Ex truncates it to whole seconds and sends EX 0, which Redis rejects \(invalid expire time\); use Px for a TTL under a second`
		return err
	}
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().PxMilliseconds(int64(ttl.Seconds())).Build()).Error(); err != nil { // want `PX takes milliseconds, but int64\(ttl.Seconds\(\)\) is in seconds: the TTL is 1000 times shorter than meant; pass ttl.Milliseconds\(\)`
		return err
	}
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().PxatMillisecondsTimestamp(time.Now().Add(ttl).Unix()).Build()).Error(); err != nil { // want `PXAT takes a Unix time in milliseconds, but time.Now\(\).Add\(ttl\).Unix\(\) is in seconds`
		return err
	}
	return c.Do(ctx, c.B().Expire().Key(key).Seconds(ttl.Milliseconds()).Build()).Error() // want `EXPIRE takes seconds, but ttl.Milliseconds\(\) is in milliseconds`
}
