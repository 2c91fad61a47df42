// Package getset takes a lock with GETSET and judges the value it
// writes like a SET NX's.
package getset

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

func claim(ctx context.Context, rdb *redis.Client, id string, work func() error) error {
	lockKey := "quota:" + id + "-lock"
	old, err := rdb.GetSet(ctx, lockKey, 1).Result() // want `stores the constant 1`
	if err != nil && err != redis.Nil {
		return err
	}
	if old != "" {
		return errors.New("locked")
	}
	defer rdb.Del(ctx, lockKey)
	return work()
}

// Near miss: GETSET of a constant whose old value is read as data.
func rotate(ctx context.Context, rdb *redis.Client) (string, error) {
	prev, err := rdb.GetSet(ctx, "feature:lock-screen", "on").Result()
	if err != nil {
		return "", err
	}
	return "was " + prev, nil
}
