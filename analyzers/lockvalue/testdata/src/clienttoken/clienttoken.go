// Package clienttoken keeps lock tokens in structs: one per client for
// every key (reported), and shapes where the token does belong to one
// holder (silent).
package clienttoken

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// Locks is shared by every caller: one token for all of them.
type Locks struct {
	rdb   *redis.Client
	owner string
	ttl   time.Duration
}

type Option func(*Locks)

func WithOwner(owner string) Option { return func(l *Locks) { l.owner = owner } } // want WithOwner:`lock value from parameters \[0\]`

func NewLocks(rdb *redis.Client, opts ...Option) *Locks {
	l := &Locks{rdb: rdb, owner: uuid.NewString(), ttl: 30 * time.Second} // want `field owner holds one lock token per Locks, made here, and TryLock stores it for whatever key its caller passes`
	for _, o := range opts {
		o(l)
	}
	return l
}

func (l *Locks) TryLock(ctx context.Context, name string) (bool, error) {
	return l.rdb.SetNX(ctx, "locks:"+name, l.owner, l.ttl).Result()
}

func (l *Locks) Unlock(ctx context.Context, name string) error {
	return release.Run(ctx, l.rdb, []string{"locks:" + name}, l.owner).Err()
}

// Mutex is made for one key, and its token for that key alone.
type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func NewMutex(rdb *redis.Client, name string) *Mutex {
	return &Mutex{rdb: rdb, key: "mutex:" + name, token: uuid.NewString()}
}

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.token, time.Minute).Result()
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return release.Run(ctx, m.rdb, []string{m.key}, m.token).Err()
}

// Session makes a token for each acquisition (racy, but not one shared
// token).
type Session struct {
	rdb   *redis.Client
	token string
}

func (s *Session) Acquire(ctx context.Context, name string) (bool, error) {
	s.token = uuid.NewString()
	return s.rdb.SetNX(ctx, "session:"+name, s.token, time.Minute).Result()
}

func (s *Session) Release(ctx context.Context, name string) error {
	return release.Run(ctx, s.rdb, []string{"session:" + name}, s.token).Err()
}

// Leases hands out a token per acquisition with the lease.
type Leases struct{ rdb *redis.Client }

type Lease struct{ key, token string }

func (l *Leases) Obtain(ctx context.Context, name string) (*Lease, error) {
	lease := &Lease{key: "lease:" + name, token: uuid.NewString()}
	ok, err := l.rdb.SetNX(ctx, lease.key, lease.token, time.Minute).Result()
	if err != nil || !ok {
		return nil, err
	}
	return lease, nil
}

func (l *Leases) Release(ctx context.Context, lease *Lease) error {
	return release.Run(ctx, l.rdb, []string{lease.key}, lease.token).Err()
}

// Scoped takes its token from whoever makes it, perhaps one per request.
type Scoped struct {
	rdb   *redis.Client
	token string
}

func NewScoped(rdb *redis.Client, token string) *Scoped { return &Scoped{rdb: rdb, token: token} } // want NewScoped:`lock value from parameters \[1\]`

func (s *Scoped) TryLock(ctx context.Context, name string) (bool, error) {
	return s.rdb.SetNX(ctx, "scoped:"+name, s.token, time.Minute).Result()
}

func (s *Scoped) Unlock(ctx context.Context, name string) error {
	return release.Run(ctx, s.rdb, []string{"scoped:" + name}, s.token).Err()
}

// Pool hands out held locks built by a constructor; TryLock and Lock are
// one lock API, whose releases the held value does.
type Pool struct {
	rdb   *redis.Client
	owner string
}

func NewPool(rdb *redis.Client) *Pool {
	return &Pool{rdb: rdb, owner: uuid.NewString()} // want `field owner holds one lock token per Pool, made here, and Lock stores it for whatever key its caller passes`
}

type Held struct {
	rdb        *redis.Client
	key, owner string
}

func newHeld(rdb *redis.Client, key, owner string) *Held {
	return &Held{rdb: rdb, key: key, owner: owner}
}

func (p *Pool) Lock(ctx context.Context, key string) (*Held, error) {
	for {
		ok, err := p.rdb.SetNX(ctx, key, p.owner, time.Minute).Result()
		if err != nil {
			return nil, err
		}
		if ok {
			return newHeld(p.rdb, key, p.owner), nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (p *Pool) TryLock(ctx context.Context, key string) (*Held, bool, error) {
	ok, err := p.rdb.SetNX(ctx, key, p.owner, time.Minute).Result()
	if err != nil || !ok {
		return nil, false, err
	}
	return newHeld(p.rdb, key, p.owner), true, nil
}

func (h *Held) Unlock(ctx context.Context) error {
	return release.Run(ctx, h.rdb, []string{h.key}, h.owner).Err()
}
