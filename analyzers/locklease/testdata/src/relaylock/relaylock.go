// Package relaylock is a small lock library in another package: Obtain
// takes a key, Refresh extends it with an owner check.
package relaylock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrNotObtained = errors.New("not obtained")

var refreshScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

type Lock struct {
	client *redis.Client
	key    string
	value  string
}

func Obtain(ctx context.Context, client *redis.Client, key, value string, ttl time.Duration) (*Lock, error) {
	ok, err := client.SetNX(ctx, key, value, ttl).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNotObtained
	}
	return &Lock{client: client, key: key, value: value}, nil
}

func (l *Lock) Refresh(ctx context.Context, ttl time.Duration) error {
	n, err := refreshScript.Run(ctx, l.client, []string{l.key}, l.value, ttl.Milliseconds()).Int()
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrNotObtained
	}
	return nil
}
