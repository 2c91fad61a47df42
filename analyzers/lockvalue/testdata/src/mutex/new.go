package mutex

import (
	"fmt"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
)

// Mutex is a project's own lock: the constructor here sets the value
// field that Lock, in another file, stores.
type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	value string
	ttl   time.Duration
}

func NewMutex(rdb redis.UniversalClient, name string) *Mutex {
	return &Mutex{
		rdb:   rdb,
		key:   "mutex:" + name,
		value: fmt.Sprintf("%s-%d", hostname(), os.Getpid()), // want `lock m.key stores the hostname and the process ID as its value`
		ttl:   30 * time.Second,
	}
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	return h
}

// Owner is a second lock type whose value is the key itself.
type Owner struct {
	rdb   *redis.Client
	key   string
	owner string
}

func NewOwner(rdb *redis.Client, key string) *Owner { // want NewOwner:`lock value from parameters \[1\]`
	return &Owner{rdb: rdb, key: key, owner: key} // want `lock o.key stores the lock key itself as its value`
}

// Safe's value comes from its caller: unknown, silent.
type Safe struct {
	rdb   *redis.Client
	key   string
	token string
}

func NewSafe(rdb *redis.Client, key, token string) *Safe { // want NewSafe:`lock value from parameters \[2\]`
	return &Safe{rdb: rdb, key: key, token: token}
}

// Leader's constructor makes the value in a local first: the report lands
// where it is made, not where the literal stores it.
type Leader struct {
	rdb *redis.Client
	key string
	id  string
}

func NewLeader(rdb *redis.Client) *Leader {
	host, _ := os.Hostname()
	id := fmt.Sprintf("%s:%d", host, os.Getpid()) // want `lock l.key stores the hostname and the process ID as its value`
	return &Leader{
		rdb: rdb,
		key: "leader",
		id:  id,
	}
}

// Ticket's value is made whole by a helper: the helper's return is the
// line to change. (A value put together from parts, as NewMutex does, is
// reported where the parts are put together.)
type Ticket struct {
	rdb *redis.Client
	key string
	id  string
}

func NewTicket(rdb *redis.Client) *Ticket {
	return &Ticket{rdb: rdb, key: "ticket", id: stamp()}
}

func stamp() string {
	return fmt.Sprint(time.Now().UnixNano()) // want `lock t.key stores a timestamp as its value`
}
