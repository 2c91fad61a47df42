// Package cachekv is a project's own wrapper of go-redis, as many
// applications have: the TTL and the keys are its callers'.
package cachekv

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrTaken = errors.New("taken")

type Manager struct{ Client *redis.Client }

func (m *Manager) SetNX(key string, value interface{}, expiration time.Duration) error {
	ok, err := m.Client.SetNX(context.Background(), key, value, expiration).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrTaken
	}
	return nil
}

func (m *Manager) Del(keys ...string) error {
	return m.Client.Del(context.Background(), keys...).Err()
}
