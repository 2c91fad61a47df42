// Package hostaddr keeps the host's network address as its lock value.
package hostaddr

import (
	"context"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"netaddr"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func ipv4() string {
	ifaces, err := net.Interfaces()
	if err != nil {
		return "0.0.0.0"
	}
	for _, i := range ifaces {
		addrs, err := i.Addrs()
		if err != nil {
			return "0.0.0.0"
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
				return n.IP.String()
			}
		}
	}
	return "0.0.0.0"
}

func lockTask(ctx context.Context, rdb *redis.Client, key string) (string, bool) {
	value := ipv4() + ":worker"
	if !rdb.SetNX(ctx, key, value, time.Minute).Val() { // want `lock key stores a network address of the host as its value`
		return "", false
	}
	return value, true
}

func unlockTask(ctx context.Context, rdb *redis.Client, key, value string) error {
	return release.Run(ctx, rdb, []string{key}, value).Err()
}

type Preempt struct {
	rdb *redis.Client
	key string
	ip  string
}

func NewPreempt(rdb *redis.Client, key string) *Preempt {
	ip, _ := netaddr.Local() // want `lock p.key stores a network address of the host`
	return &Preempt{rdb: rdb, key: key, ip: ip}
}

func (p *Preempt) Lock(ctx context.Context) (bool, error) {
	return p.rdb.SetNX(ctx, p.key, p.ip, time.Minute).Result()
}

func (p *Preempt) Unlock(ctx context.Context) error {
	return release.Run(ctx, p.rdb, []string{p.key}, p.ip).Err()
}

// Near misses: an address joined with a random token, or with a
// nanosecond timestamp, tells holders apart; a named result the body
// assigns from the caller's input is unknown.

func LockUnique(ctx context.Context, rdb *redis.Client, key string) (string, error) {
	value := ipv4() + ":" + uuid.NewString()
	if err := rdb.SetNX(ctx, key, value, time.Minute).Err(); err != nil {
		return "", err
	}
	return value, nil
}

func UnlockUnique(ctx context.Context, rdb *redis.Client, key, value string) error {
	return release.Run(ctx, rdb, []string{key}, value).Err()
}

func LockNano(ctx context.Context, rdb *redis.Client, key string) (string, error) {
	value := ipv4() + ":" + strconv.FormatInt(time.Now().UnixNano(), 10)
	if err := rdb.SetNX(ctx, key, value, time.Minute).Err(); err != nil {
		return "", err
	}
	return value, nil
}

func UnlockNano(ctx context.Context, rdb *redis.Client, key, value string) error {
	return release.Run(ctx, rdb, []string{key}, value).Err()
}

func LockTagged(ctx context.Context, rdb *redis.Client, key, tag string) (string, error) {
	value, err := netaddr.Tagged(tag)
	if err != nil {
		return "", err
	}
	if err := rdb.SetNX(ctx, key, value, time.Minute).Err(); err != nil {
		return "", err
	}
	return value, nil
}

func UnlockTagged(ctx context.Context, rdb *redis.Client, key, value string) error {
	return release.Run(ctx, rdb, []string{key}, value).Err()
}

// ownerValue builds the lock value from the address and the process ID:
// reported where it builds it, once, not at each acquire.
func ownerValue() string {
	return ipv4() + "-" + strconv.Itoa(os.Getpid()) // want `lock "job:a" stores a network address of the host and the process ID as its value`
}

func lockJobA(ctx context.Context, rdb *redis.Client) (bool, error) {
	return rdb.SetNX(ctx, "job:a", ownerValue(), time.Minute).Result()
}

func lockJobB(ctx context.Context, rdb *redis.Client) (bool, error) {
	return rdb.SetNX(ctx, "job:a", ownerValue(), time.Minute).Result()
}

func unlockJob(ctx context.Context, rdb *redis.Client) error {
	return release.Run(ctx, rdb, []string{"job:a"}, ownerValue()).Err()
}
