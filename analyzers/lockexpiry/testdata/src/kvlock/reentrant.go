package kvlock

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A reentrant hash lock: the acquire creates the hash when the key is
// absent and never gives it a TTL.
var hashAcquire = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'owner', ARGV[1])
  return redis.call('HINCRBY', KEYS[1], 'count', 1)
end
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then
  return redis.call('HINCRBY', KEYS[1], 'count', 1)
end
return 0
`)

// Its unlock leaves when the key is absent, then counts a re-entry down
// or deletes the hash: the HINCRBY runs on a key that exists, no acquire.
var hashRelease = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 1
end
if tonumber(redis.call('HGET', KEYS[1], 'count')) > 1 then
  redis.call('HINCRBY', KEYS[1], 'count', -1)
  return 2
end
return redis.call('DEL', KEYS[1])
`)

func LockReentrant(ctx context.Context, rdb *redis.Client, key, owner string) (bool, error) {
	n, err := hashAcquire.Run(ctx, rdb, []string{key}, owner).Int() // want `lock key is acquired with EVAL(SHA)? without a TTL`
	return n > 0, err
}

func UnlockReentrant(ctx context.Context, rdb *redis.Client, key, owner string) error {
	return hashRelease.Run(ctx, rdb, []string{key}, owner).Err()
}
