// Package hostowner keeps its lock's owner in a field its constructor
// fills from the host's name, with the process ID as a fallback.
package hostowner

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Locker struct {
	rdb   redis.Cmdable
	owner string
}

// Reported where the owner is made, the line to change: os.Hostname().
func New(rdb redis.Cmdable) *Locker {
	host, err := os.Hostname() // want `lock "sync:lock" stores the hostname and the process ID as its value`
	if err != nil {
		host = fmt.Sprintf("pid-%d", os.Getpid())
	}
	return &Locker{rdb: rdb, owner: host}
}

func (l *Locker) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, "sync:lock", l.owner, time.Minute).Result()
}

func (l *Locker) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rdb, []string{"sync:lock"}, l.owner).Err()
}

type Named struct {
	rdb   redis.Cmdable
	owner string
}

// Near miss for the position: one assignment, followed to its value.
func NewNamed(rdb redis.Cmdable) *Named {
	owner := fmt.Sprintf("pid-%d", os.Getpid()) // want `lock "named:lock" stores the process ID as its value`
	return &Named{rdb: rdb, owner: owner}
}

func (n *Named) Lock(ctx context.Context) (bool, error) {
	return n.rdb.SetNX(ctx, "named:lock", n.owner, time.Minute).Result()
}

func (n *Named) Unlock(ctx context.Context) error {
	return release.Run(ctx, n.rdb, []string{"named:lock"}, n.owner).Err()
}

// A helper that returns the owner is followed the same way: reported
// where the returned local is first assigned.
func instance() string {
	h, _ := os.Hostname() // want `lock "helper:lock" stores the hostname as its value`
	if h == "" {
		h = "instance"
	}
	return h
}

func WithHelper(ctx context.Context, rdb redis.Cmdable) error {
	owner := instance()
	ok, err := rdb.SetNX(ctx, "helper:lock", owner, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	return release.Run(ctx, rdb, []string{"helper:lock"}, owner).Err()
}

// Near miss: the returned local has a random fallback.
func instanceOrToken() string {
	h, _ := os.Hostname()
	if h == "" {
		h = fmt.Sprint(uuid.NewString())
	}
	return h
}

func WithTokenHelper(ctx context.Context, rdb redis.Cmdable) error {
	owner := instanceOrToken()
	ok, err := rdb.SetNX(ctx, "token:lock", owner, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	return release.Run(ctx, rdb, []string{"token:lock"}, owner).Err()
}
