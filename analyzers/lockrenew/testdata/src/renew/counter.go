package renew

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A script that seeds a counter when it is missing and then counts it is
// no lock: the EXPIRE that keeps the counter from living forever is no
// renewal.
var takeLimit = redis.NewScript(`local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then
  redis.call('SET', key, ARGV[1], 'EX', ARGV[3])
end
if tonumber(redis.call('GET', key)) >= tonumber(ARGV[2]) then
  return 0
end
return redis.call('INCR', key)`)

func takeCountKey(user string) string { return "take:" + user }

func checkAndCount(ctx context.Context, user string, seed int64, limit int) (bool, error) {
	n, err := takeLimit.Run(ctx, rdb, []string{takeCountKey(user)}, seed, limit, 60).Int64()
	return n > 0, err
}

func countAgain(ctx context.Context, user string, ttl time.Duration) {
	key := takeCountKey(user)
	rdb.Incr(ctx, key)
	rdb.Expire(ctx, key, ttl)
}

// The same shape with a token and no count is a lock taken in Lua, and an
// EXPIRE elsewhere extends it whoever holds it.
var takeJob = redis.NewScript(`local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then
  redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`)

func jobKey(id string) string { return "job:" + id }

func startJob(ctx context.Context, id string) (bool, error) {
	n, err := takeJob.Run(ctx, rdb, []string{jobKey(id)}, newToken(), 10000).Int64()
	return n == 1, err
}

func keepJob(ctx context.Context, id string) {
	for {
		rdb.Expire(ctx, jobKey(id), ttl) // want `lock jobKey\(id\) is renewed with EXPIRE without checking that this holder still owns it`
		time.Sleep(time.Second)
	}
}
