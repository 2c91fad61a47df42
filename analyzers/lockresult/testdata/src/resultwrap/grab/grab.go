// Package grab takes locks on redigo and hands out their tokens. Grab
// tells a lock it could not get within the retry period only by an
// empty token; Take returns an error instead.
package grab

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"
)

var ErrBusy = errors.New("grab: lock held")

type Locker struct {
	key        string
	expiration time.Duration
}

func NewLocker(key string, expiration time.Duration) *Locker {
	return &Locker{key: key, expiration: expiration}
}

func token() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Grab retries every second until retry has passed; then it returns "".
func (l *Locker) Grab(rp *redis.Pool, retry time.Duration) (string, error) { // want Grab:"returns the outcome of SET NX at grab.go:\\d+"
	value := token()
	start := time.Now()
	for {
		rc := rp.Get()
		success, err := rc.Do("SET", l.key, value, "EX", int(l.expiration/time.Second), "NX")
		rc.Close()
		if err != nil {
			return "", err
		}
		if success == "OK" {
			break
		}
		if time.Since(start) > retry {
			return "", nil
		}
		time.Sleep(time.Second)
	}
	return value, nil
}

// Take fails with ErrBusy: its callers need only look at the error.
func (l *Locker) Take(rp *redis.Pool) (string, error) {
	value := token()
	rc := rp.Get()
	defer rc.Close()
	success, err := rc.Do("SET", l.key, value, "EX", int(l.expiration/time.Second), "NX")
	if err != nil {
		return "", err
	}
	if success != "OK" {
		return "", ErrBusy
	}
	return value, nil
}

var release = redis.NewScript(1, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

func (l *Locker) Release(rp *redis.Pool, value string) error {
	rc := rp.Get()
	defer rc.Close()
	_, err := release.Do(rc, l.key, value)
	return err
}
