package fence

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cast"
)

// A lock script that answers 0 when it took the lock and 1 when the key
// was already held.
var takeOrSayHeld = redis.NewScript(`local v = redis.call('GET', KEYS[1])
if v == '1' then
	return 1
end
redis.call('SETEX', KEYS[1], 60, '1')
return 0`)

// The section starts past "held: skip", since the script says 1 for held.
func moveIdle(ctx context.Context, stream string) {
	ticker := time.NewTicker(time.Second)
	for range ticker.C {
		if v := takeOrSayHeld.Run(ctx, rdb, []string{stream + ":lock"}).Val(); cast.ToInt64(v) == 1 {
			continue
		}
		rdb.HSet(ctx, stream+":moved", "at", time.Now().Unix()) // want `Redis HSET under lock stream \+ ":lock" \(EVAL\) carries no fencing token`
		rdb.Unlink(ctx, stream+":lock")
	}
}

// Near miss: what runs when the script answers 1 runs without the lock.
func countBusy(ctx context.Context, stream string) {
	v, err := takeOrSayHeld.Run(ctx, rdb, []string{stream + ":lock"}).Result()
	if err != nil {
		return
	}
	if v.(int64) == 1 {
		rdb.HSet(ctx, stream+":stats", "busy", time.Now().Unix())
		return
	}
	rdb.Unlink(ctx, stream+":lock")
}

// The same, with the reply converted by cast.
func logBusy(ctx context.Context, stream string) {
	v := takeOrSayHeld.Run(ctx, rdb, []string{stream + ":lock"}).Val()
	if cast.ToInt64(v) == 1 {
		rdb.HSet(ctx, stream+":stats", "busy", time.Now().Unix())
		return
	}
	rdb.Unlink(ctx, stream+":lock")
}
