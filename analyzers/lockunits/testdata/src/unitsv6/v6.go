package unitsv6

import "github.com/go-redis/redis"

var rdb = redis.NewClient(&redis.Options{})

func lock(key, token string) (bool, error) {
	return rdb.SetNX(key, token, 1000).Result() // want `go-redis v6 sends PX 0, which Redis rejects`
}

func renew(key string) error {
	return rdb.PExpire(key, 500).Err() // want `PExpire takes a time.Duration, so TTL 500 is 500 nanoseconds: go-redis v6 sends PEXPIRE 0, which deletes the key at once; write 500\*time.Millisecond`
}
