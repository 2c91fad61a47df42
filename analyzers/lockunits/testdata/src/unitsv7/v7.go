package unitsv7

import (
	"time"

	"github.com/go-redis/redis/v7"
)

var rdb = redis.NewClient(&redis.Options{})

func lock(key, token string) bool {
	return rdb.SetNX(key, token, 30).Val() // want `SetNX takes a time.Duration, so TTL 30 is 30 nanoseconds: go-redis v7 sends PX 0, which Redis rejects \(invalid expire time\): the command fails every time`
}

func touch(key string) {
	rdb.Expire(key, 10) // want `go-redis v7 sends EXPIRE 0, which deletes the key at once`
}

func raw(key string, ttl time.Duration) error {
	return rdb.Do("set", key, "1", "nx", "ex", ttl/time.Second).Err() // want `EX takes an integer number of seconds, but ttl/time.Second is a time.Duration: go-redis v7 cannot encode a time.Duration argument \("redis: can't marshal time.Duration"\): the command fails every time; pass int64\(ttl/time.Second\)`
}
