package lease

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errLost = errors.New("lock lost")

var extendIfOwner = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`)

var releaseIfOwner = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

type jobLock struct {
	rdb        *redis.Client
	key, token string
}

func (l *jobLock) Acquire(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.token, 30*time.Second).Result()
}

func (l *jobLock) Release(ctx context.Context) error {
	return releaseIfOwner.Run(ctx, l.rdb, []string{l.key}, l.token).Err()
}

// The script's 0 (the key is gone, or another holder's) is dropped.
func (l *jobLock) Refresh(ctx context.Context, ttl time.Duration) error {
	_, err := extendIfOwner.Run(ctx, l.rdb, []string{l.key}, l.token, ttl.Milliseconds()).Int() // want `the reply of .* is discarded, and Refresh returns only the error`
	return err
}

// Near miss: the reply is read.
func (l *jobLock) Extend(ctx context.Context, ttl time.Duration) error {
	n, err := extendIfOwner.Run(ctx, l.rdb, []string{l.key}, l.token, ttl.Milliseconds()).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return errLost
	}
	return nil
}

// Near miss: the outcome is returned beside the error.
func (l *jobLock) Renew(ctx context.Context, ttl time.Duration) (bool, error) {
	_, err := extendIfOwner.Run(ctx, l.rdb, []string{l.key}, l.token, ttl.Milliseconds()).Int()
	return err == nil, err
}

// PEXPIRE's false (the key is gone) is dropped with Err() too, but the
// renewal checks no owner at all: that is lockrenew's report, once.
func (l *jobLock) Touch(ctx context.Context) error {
	return l.rdb.PExpire(ctx, l.key, 30*time.Second).Err()
}

// Near miss for the same reason: the owner was compared in Go a round
// trip earlier (lockrenew's GET-then-EXPIRE), and the EXPIRE's false is
// part of that one report.
func (l *jobLock) RenewIfMine(ctx context.Context) (bool, error) {
	v, err := l.rdb.Get(ctx, l.key).Result()
	if err != nil || v != l.token {
		return false, err
	}
	if err := l.rdb.Expire(ctx, l.key, 30*time.Second).Err(); err != nil {
		return false, err
	}
	return true, nil
}

// The owner-checked extend's 0 is dropped and the answer is a constant
// true.
func (l *jobLock) RenewScripted(ctx context.Context, ttl time.Duration) (bool, error) {
	if _, err := extendIfOwner.Run(ctx, l.rdb, []string{l.key}, l.token, ttl.Milliseconds()).Int(); err != nil { // want `the reply of .* is discarded, and RenewScripted answers true`
		return false, err
	}
	return true, nil
}

// The owner-checked extend's reply dropped with Err().
func (l *jobLock) ExtendTTL(ctx context.Context, ttl time.Duration) error {
	return extendIfOwner.Run(ctx, l.rdb, []string{l.key}, l.token, ttl.Milliseconds()).Err() // want `the reply of .* is discarded, and ExtendTTL returns only the error`
}
