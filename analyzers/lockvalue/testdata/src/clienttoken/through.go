package clienttoken

import (
	"context"
	"time"

	"github.com/google/uuid"

	"kvbackends"
)

// Guard stores its one owner through the package's Cache interface,
// whose go-redis implementation stores the value it is given.
type Guard struct {
	cache kvbackends.Cache
	owner string
}

func NewGuard(c kvbackends.Cache) *Guard {
	return &Guard{cache: c, owner: uuid.NewString()} // want `field owner holds one lock token per Guard, made here, and Acquire stores it for whatever key its caller passes`
}

func (g *Guard) Acquire(ctx context.Context, name string) (bool, error) {
	return g.cache.SetNX(ctx, "guard:"+name, g.owner, time.Minute)
}

func (g *Guard) Release(ctx context.Context, name string) error {
	return g.cache.Del(ctx, "guard:"+name)
}

// Stamp passes its field to a helper that stores a token of its own: the
// field is no lock value.
type Stamp struct {
	cache kvbackends.Cache
	owner string
}

func NewStamp(c kvbackends.Cache) *Stamp { return &Stamp{cache: c, owner: uuid.NewString()} }

func (s *Stamp) Acquire(ctx context.Context, name string) (bool, error) {
	return setOwned(ctx, s.cache, "stamp:"+name, s.owner)
}

func (s *Stamp) Release(ctx context.Context, name string) error {
	return s.cache.Del(ctx, "stamp:"+name)
}

func setOwned(ctx context.Context, c kvbackends.Cache, key, label string) (bool, error) {
	_ = label
	return c.SetNX(ctx, key, uuid.NewString(), time.Minute)
}
