// Package configdefault keeps its lock value in a configuration field the
// caller may set, and gives the field a default when it is left unset:
// that default is the value of everyone who configures nothing.
package configdefault

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	"github.com/spf13/pflag"
)

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// Config is what a caller passes.
type Config struct {
	// InstanceID tells instances apart; defaults to the hostname.
	InstanceID string
	TTL        time.Duration
}

func (c *Config) setDefaults() {
	if c.TTL == 0 {
		c.TTL = 30 * time.Second
	}
	if c.InstanceID == "" {
		if h, err := os.Hostname(); err == nil {
			c.InstanceID = fmt.Sprintf("leader:%s", h) // want `lock m.key stores the hostname \(the default when cfg.InstanceID is not set\) as its value`
		} else {
			c.InstanceID = fmt.Sprintf("leader:%d", time.Now().Unix())
		}
	}
}

// Manager takes a leader lock with the configured identity.
type Manager struct {
	rdb *redis.Client
	key string
	id  string
	ttl time.Duration
}

func NewManager(rdb *redis.Client, cfg Config) *Manager {
	cfg.setDefaults()
	return &Manager{rdb: rdb, key: "manager:leader", id: cfg.InstanceID, ttl: cfg.TTL}
}

func (m *Manager) Lead(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.id, m.ttl).Result()
}

func (m *Manager) Resign(ctx context.Context) error {
	return release.Run(ctx, m.rdb, []string{m.key}, m.id).Err()
}

// Run defaults the field in the function that takes the lock.
func Run(ctx context.Context, rdb *redis.Client, cfg Config) error {
	if cfg.InstanceID == "" {
		cfg.InstanceID = "local" // want `lock "run:leader" stores the constant "local" \(the default when cfg.InstanceID is not set\) as its value`
	}
	ok, err := rdb.SetNX(ctx, "run:leader", cfg.InstanceID, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"run:leader"}, cfg.InstanceID)
	return nil
}

// copyDefaults sets the identity on a copy: the caller's stays unset.
func (c Config) copyDefaults() {
	if c.InstanceID == "" {
		c.InstanceID = "copy"
	}
}

func CopyDefault(ctx context.Context, rdb *redis.Client, cfg Config) error {
	cfg.copyDefaults()
	ok, err := rdb.SetNX(ctx, "copy:leader", cfg.InstanceID, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"copy:leader"}, cfg.InstanceID)
	return nil
}

// Near misses: a default on a copy (above), a random default, a default with one random branch, a
// default set only after the lock was taken, and no default at all.

func RandomDefault(ctx context.Context, rdb *redis.Client, cfg Config) error {
	if cfg.InstanceID == "" {
		cfg.InstanceID = uuid.NewString()
	}
	ok, err := rdb.SetNX(ctx, "random:leader", cfg.InstanceID, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"random:leader"}, cfg.InstanceID)
	return nil
}

func MixedDefault(ctx context.Context, rdb *redis.Client, cfg Config) error {
	if cfg.InstanceID == "" {
		if h, err := os.Hostname(); err == nil {
			cfg.InstanceID = h
		} else {
			cfg.InstanceID = uuid.NewString()
		}
	}
	ok, err := rdb.SetNX(ctx, "mixed:leader", cfg.InstanceID, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"mixed:leader"}, cfg.InstanceID)
	return nil
}

func LateDefault(ctx context.Context, rdb *redis.Client, cfg Config) error {
	ok, err := rdb.SetNX(ctx, "late:leader", cfg.InstanceID, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"late:leader"}, cfg.InstanceID)
	if cfg.InstanceID == "" {
		cfg.InstanceID = "local"
	}
	return nil
}

func NoDefault(ctx context.Context, rdb *redis.Client, cfg Config) error {
	ok, err := rdb.SetNX(ctx, "plain:leader", cfg.InstanceID, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"plain:leader"}, cfg.InstanceID)
	return nil
}

// The node's identity is a command-line flag: whoever does not pass it
// runs with the default, reported at the flag's definition.
var nodeID = flag.String("node-id", "node-1", "this node's id") // want `lock "flag:leader" stores the constant "node-1" \(the default when flag -node-id is not given\) as its value`

func FlagLeader(ctx context.Context, rdb *redis.Client) error {
	ok, err := rdb.SetNX(ctx, "flag:leader", *nodeID, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"flag:leader"}, *nodeID)
	return nil
}

func PflagLeader(ctx context.Context, rdb *redis.Client) error {
	worker := pflag.StringP("worker", "w", "worker", "this worker's id") // want `lock "pflag:leader" stores the constant "worker" \(the default when flag -worker is not given\) as its value`
	pflag.Parse()
	ok, err := rdb.SetNX(ctx, "pflag:leader", *worker, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"pflag:leader"}, *worker)
	return nil
}

// Near miss: a flag whose default is random.
var token = flag.String("token", uuid.NewString(), "this run's token")

func TokenLeader(ctx context.Context, rdb *redis.Client) error {
	ok, err := rdb.SetNX(ctx, "token:leader", *token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{"token:leader"}, *token)
	return nil
}
