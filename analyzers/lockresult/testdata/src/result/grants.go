package result

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

// "The lock is only insurance: if Redis is down, do not block the
// business" — an error counted as a grant lets every caller in at once.
func grantOnError(ctx context.Context, rdb *redis.Client, key string) {
	for {
		ok, err := rdb.SetNX(ctx, key, "t", time.Minute).Result() // want `when SetNX of key fails with an error \(err != nil\), ok = true: the code that tests it runs the critical section without the lock`
		if err != nil {
			ok = true
		}
		if ok {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	work()
	rdb.Del(ctx, key)
}

// Near misses: the error is a refusal; the branch returns the error; a
// flag of its own is set.
func refuseOnError(ctx context.Context, rdb *redis.Client, key string) {
	ok, err := rdb.SetNX(ctx, key, "t", time.Minute).Result()
	if err != nil {
		ok = false
	}
	if !ok {
		return
	}
	work()
	rdb.Del(ctx, key)
}

func returnOnError(ctx context.Context, rdb *redis.Client, key string) error {
	ok, err := rdb.SetNX(ctx, key, "t", time.Minute).Result()
	if err != nil {
		ok = true // stops the caller's retry; the error is returned
		log.Print(ok)
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	work()
	return rdb.Del(ctx, key).Err()
}

func otherFlag(ctx context.Context, rdb *redis.Client, key string) {
	failed := false
	ok, err := rdb.SetNX(ctx, key, "t", time.Minute).Result()
	if err != nil {
		failed = true
	}
	if failed || !ok {
		return
	}
	work()
	rdb.Del(ctx, key)
}
