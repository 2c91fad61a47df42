package lease

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

// Claim keeps a task's claim key with a GET, a compare and an EXPIRE per
// tick (lockrenew's concern). Its step tells the task when the key is gone
// or changed, so the dropped EXPIRE outcome hides nothing the next tick
// does not find.
type Claim struct {
	rdb        *redis.Client
	key, token string
}

func (c *Claim) Take(ctx context.Context) (context.Context, bool) {
	ok, err := c.rdb.SetNX(ctx, c.key, c.token, 45*time.Second).Result()
	if err != nil || !ok {
		return ctx, false
	}
	work, cancel := context.WithCancel(ctx)
	go c.keep(work, cancel)
	return work, true
}

func (c *Claim) keep(ctx context.Context, cancel context.CancelFunc) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.step(ctx, cancel)
		}
	}
}

func (c *Claim) step(ctx context.Context, cancel context.CancelFunc) {
	val, err := c.rdb.Get(ctx, c.key).Result()
	if err == redis.Nil {
		cancel()
		return
	}
	if err != nil {
		return
	}
	if val != c.token {
		cancel()
		return
	}
	if err := c.rdb.Expire(ctx, c.key, 45*time.Second).Err(); err != nil {
		log.Printf("extend %s: %v", c.key, err)
	}
}

func (c *Claim) Release(ctx context.Context) {
	if v, _ := c.rdb.Get(ctx, c.key).Result(); v == c.token {
		c.rdb.Del(ctx, c.key)
	}
}

// Marker reads the key too, but only logs what it finds: nobody is told.
type Marker struct {
	rdb        *redis.Client
	key, token string
}

func (m *Marker) Take(ctx context.Context) bool {
	ok, err := m.rdb.SetNX(ctx, m.key, m.token, 45*time.Second).Result()
	if err != nil || !ok {
		return false
	}
	go m.keep(ctx)
	return true
}

func (m *Marker) keep(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.step(ctx)
		}
	}
}

func (m *Marker) step(ctx context.Context) {
	val, err := m.rdb.Get(ctx, m.key).Result()
	if err != nil || val != m.token {
		log.Printf("marker %s lost", m.key)
		return
	}
	if err := m.rdb.Expire(ctx, m.key, 45*time.Second).Err(); err != nil { // want `this keep-alive renews with EXPIRE of lock m.key but drops the outcome`
		log.Printf("extend %s: %v", m.key, err)
	}
}

func (m *Marker) Release(ctx context.Context) {
	if v, _ := m.rdb.Get(ctx, m.key).Result(); v == m.token {
		m.rdb.Del(ctx, m.key)
	}
}

// Leader keeps a leader key per tick; losing it clears isLeader, which
// the scheduler reads before each run.
type Leader struct {
	rdb      *redis.Client
	id       string
	isLeader bool
}

func (l *Leader) Start(ctx context.Context) { go l.run(ctx) }

func (l *Leader) run(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l.tick(ctx)
		}
	}
}

func (l *Leader) tick(ctx context.Context) {
	if ok, err := l.rdb.SetNX(ctx, "leader", l.id, 15*time.Second).Result(); err == nil && ok {
		l.isLeader = true
		return
	}
	cur, err := l.rdb.Get(ctx, "leader").Result()
	if err != nil {
		l.isLeader = false
		return
	}
	if cur == l.id {
		l.rdb.Expire(ctx, "leader", 15*time.Second)
		l.isLeader = true
	} else {
		l.isLeader = false
	}
}

func (l *Leader) Leading() bool { return l.isLeader }

func (l *Leader) Resign(ctx context.Context) {
	if cur, _ := l.rdb.Get(ctx, "leader").Result(); cur == l.id {
		l.rdb.Del(ctx, "leader")
	}
}

// Checker renews first and then reads who holds the key, in the same
// round: a key found gone or another's clears the leader flag.
type Checker struct {
	rdb      *redis.Client
	key, id  string
	isLeader bool
}

func (c *Checker) Run(ctx context.Context) {
	go func() {
		for range time.Tick(time.Second) {
			if !c.isLeader {
				ok, err := c.rdb.SetNX(ctx, c.key, c.id, 10*time.Second).Result()
				c.isLeader = err == nil && ok
				continue
			}
			_ = c.rdb.PExpire(ctx, c.key, 10*time.Second).Err()
			if v, _ := c.rdb.Get(ctx, c.key).Result(); v != c.id {
				c.isLeader = false
			}
		}
	}()
}

func (c *Checker) Leader() bool { return c.isLeader }

// The same round whose check after the renewal only logs: nobody hears.
type LogChecker struct {
	rdb     *redis.Client
	key, id string
}

func (c *LogChecker) Run(ctx context.Context, work func()) {
	ok, err := c.rdb.SetNX(ctx, c.key, c.id, 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	go func() {
		for range time.Tick(time.Second) {
			_ = c.rdb.PExpire(ctx, c.key, 10*time.Second).Err() // want `this keep-alive renews with PEXPIRE of lock c.key but drops the outcome`
			if v, _ := c.rdb.Get(ctx, c.key).Result(); v != c.id {
				log.Printf("lost %s", c.key)
			}
		}
	}()
	work()
}
