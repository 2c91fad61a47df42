// Package elector passes the lock value to a constructor that keeps it
// in a field: what the package's own callers pass decides (a host and
// process identity is reported where it is made), and anything else
// stays the caller's.
package elector

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

type Elector struct {
	rdb *redis.Client
	key string
	id  string
}

func NewElector(rdb *redis.Client, key, id string) *Elector { // want NewElector:`lock value from parameters \[2\]`
	return &Elector{rdb: rdb, key: key, id: id}
}

func (e *Elector) TryAcquire(ctx context.Context) (bool, error) {
	return e.rdb.SetNX(ctx, e.key, e.id, 30*time.Second).Result()
}

func (e *Elector) Release(ctx context.Context) error {
	return release.Run(ctx, e.rdb, []string{e.key}, e.id).Err()
}

func instanceID() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d", host, os.Getpid()) // want `lock e.key stores the hostname and the process ID as its value`
}

// Service builds its elector with the process's identity.
type Service struct{ leader *Elector }

func NewService(rdb *redis.Client) *Service {
	id := instanceID()
	return &Service{leader: NewElector(rdb, "cleanup:leader", id)}
}

// Near miss: the caller passes a random token.
type Job struct {
	rdb *redis.Client
	id  string
}

func newJob(rdb *redis.Client, id string) *Job { return &Job{rdb: rdb, id: id} }

func (j *Job) Lock(ctx context.Context) (bool, error) {
	return j.rdb.SetNX(ctx, "job:lock", j.id, time.Minute).Result()
}

func (j *Job) Unlock(ctx context.Context) error {
	return release.Run(ctx, j.rdb, []string{"job:lock"}, j.id).Err()
}

func StartJob(rdb *redis.Client) *Job { return newJob(rdb, uuid.NewString()) }

// Near miss: one caller passes the hostname, another a random token; the
// field is not weak for every holder.
type Sweeper struct {
	rdb   *redis.Client
	owner string
}

func newSweeper(rdb *redis.Client, owner string) *Sweeper { return &Sweeper{rdb: rdb, owner: owner} }

func (s *Sweeper) Lock(ctx context.Context) (bool, error) {
	return s.rdb.SetNX(ctx, "sweep:lock", s.owner, time.Minute).Result()
}

func (s *Sweeper) Unlock(ctx context.Context) error {
	return release.Run(ctx, s.rdb, []string{"sweep:lock"}, s.owner).Err()
}

func LocalSweeper(rdb *redis.Client) *Sweeper {
	host, _ := os.Hostname()
	return newSweeper(rdb, host)
}

func SharedSweeper(rdb *redis.Client) *Sweeper { return newSweeper(rdb, uuid.NewString()) }

// Near miss: an exported constructor nothing in the package calls; its
// callers elsewhere choose the value.
type Passed struct {
	rdb *redis.Client
	id  string
}

func NewPassed(rdb *redis.Client, id string) *Passed { return &Passed{rdb: rdb, id: id} } // want NewPassed:`lock value from parameters \[1\]`

func (p *Passed) Lock(ctx context.Context) (bool, error) {
	return p.rdb.SetNX(ctx, "passed:lock", p.id, time.Minute).Result()
}

func (p *Passed) Unlock(ctx context.Context) error {
	return release.Run(ctx, p.rdb, []string{"passed:lock"}, p.id).Err()
}

// Near miss: each call site names its own holder with a different
// constant.
type Named struct {
	rdb  *redis.Client
	name string
}

func newNamed(rdb *redis.Client, name string) *Named { return &Named{rdb: rdb, name: name} }

func (n *Named) Lock(ctx context.Context) (bool, error) {
	return n.rdb.SetNX(ctx, "named:lock", n.name, time.Minute).Result()
}

func (n *Named) Unlock(ctx context.Context) error {
	return release.Run(ctx, n.rdb, []string{"named:lock"}, n.name).Err()
}

func Pair(rdb *redis.Client) (*Named, *Named) {
	return newNamed(rdb, "process_1"), newNamed(rdb, "process_2")
}
