// Package failopennil takes a lock with SET NX through go-redis's
// SetArgs, whose refusal comes back as redis.Nil: that branch is the
// answer "held by another", not a failure of Redis.
package failopennil

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

type Scheduler struct {
	rdb *redis.Client
	id  string
}

var renew = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`)

// Near miss: the redis.Nil branch goes on to an owner-checked renew; a
// Redis error returns false.
func (s *Scheduler) acquireOrRenew(ctx context.Context) bool {
	err := s.rdb.SetArgs(ctx, "leader", s.id, redis.SetArgs{Mode: "NX", TTL: 30 * time.Second}).Err()
	var ok bool
	switch {
	case err == nil:
		ok = true
	case errors.Is(err, redis.Nil):
		ok = false
	default:
		log.Print(err)
		return false
	}
	if ok {
		return true
	}
	n, err := renew.Run(ctx, s.rdb, []string{"leader"}, s.id, 30000).Int()
	if err != nil {
		return false
	}
	return n == 1
}

// A Redis error returns true: fail-open, even though the refusal is
// handled.
func (s *Scheduler) acquireOpen(ctx context.Context) bool {
	err := s.rdb.SetArgs(ctx, "leader", s.id, redis.SetArgs{Mode: "NX", TTL: 30 * time.Second}).Err() // want `when SetArgs fails \(Redis unreachable, a timeout\), acquireOpen returns true`
	if err == redis.Nil {
		return false
	}
	if err != nil {
		log.Print(err)
		return true
	}
	return true
}

func (s *Scheduler) resign(ctx context.Context) {
	s.rdb.Del(ctx, "leader")
}
