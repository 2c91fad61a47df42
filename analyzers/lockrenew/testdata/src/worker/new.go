package worker

import (
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Lock is a project's own lock type: the constructor, Lock/Unlock and the
// renewals live in different files.
type Lock struct {
	rdb   redis.UniversalClient
	key   string
	token string
	ttl   time.Duration
}

func New(rdb redis.UniversalClient, name string, ttl time.Duration) *Lock {
	return &Lock{rdb: rdb, key: "lock:" + name, token: uuid.NewString(), ttl: ttl}
}
