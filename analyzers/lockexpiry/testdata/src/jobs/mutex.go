// Package jobs is shaped like a real project: a mutex type whose
// constructor, Lock, refresh and Unlock live in different files.
package jobs

import "github.com/redis/go-redis/v9"

type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func NewMutex(rdb *redis.Client, name, token string) *Mutex {
	return &Mutex{rdb: rdb, key: "jobs:" + name, token: token}
}
