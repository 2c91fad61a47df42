// Package ownerlockuser builds its locks with ownerlock's constructors.
package ownerlockuser

import (
	"context"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"ownerlock"
)

const holderName = "lockValue"

func constantHolder(rdb redis.Cmdable) *ownerlock.Locker {
	return ownerlock.NewLocker(rdb, holderName) // want `the constant "lockValue" is passed to ownerlock.NewLocker, which keeps it in holder as the value of lock`
}

func literalHolder(rdb redis.Cmdable) *ownerlock.Locker {
	return ownerlock.NewLocker(rdb, "observability") // want `the constant "observability" is passed`
}

func hostHolder(rdb redis.Cmdable) *ownerlock.Locker {
	host, _ := os.Hostname()
	return ownerlock.NewLocker(rdb, host) // want `the hostname is passed to ownerlock.NewLocker`
}

func optionHolder(rdb redis.Cmdable, l *ownerlock.Locker) *ownerlock.Locker {
	return l.WithHolder("same") // want `the constant "same" is passed to ownerlock.Locker.WithHolder`
}

// Options is the caller's configuration; its identity defaults to the
// hostname.
type Options struct{ Instance string }

func campaign(rdb *redis.Client, o Options) *ownerlock.Campaign {
	if o.Instance == "" {
		o.Instance, _ = os.Hostname() // want `the hostname \(the default when o.Instance is not set\) is passed to ownerlock.NewCampaign`
	}
	return ownerlock.NewCampaign(rdb, "leader", o.Instance)
}

func taken(ctx context.Context, rdb *redis.Client) (*ownerlock.Taken, error) {
	return ownerlock.NewTaken(ctx, rdb, "constant")
}

// Near misses: a random holder, one the caller was given, a name that is
// only the key, a marker's value.

func randomHolder(rdb redis.Cmdable) *ownerlock.Locker {
	return ownerlock.NewLocker(rdb, uuid.NewString())
}

func randomCampaign(rdb *redis.Client, o Options) *ownerlock.Campaign {
	if o.Instance == "" {
		o.Instance = uuid.NewString()
	}
	return ownerlock.NewCampaign(rdb, "leader", o.Instance)
}

func givenHolder(rdb redis.Cmdable, holder string) *ownerlock.Locker {
	return ownerlock.NewLocker(rdb, holder)
}

func namedMutex(ctx context.Context, rdb redis.Cmdable) error {
	m := ownerlock.NewMutex(rdb, "orders")
	if ok, err := m.Lock(ctx); err != nil || !ok {
		return err
	}
	defer m.Unlock(ctx)
	time.Sleep(time.Millisecond)
	return nil
}

func marker(rdb redis.Cmdable) *ownerlock.Marker {
	return ownerlock.NewMarker(rdb, "1")
}

func fresh(rdb redis.Cmdable) *ownerlock.Fresh {
	return ownerlock.NewFresh(rdb, "initial")
}

func scriptLock(rdb *redis.Client) *ownerlock.ScriptLock {
	return ownerlock.NewScriptLock(rdb, "lock:pack", "red_pack") // want `the constant "red_pack" is passed to ownerlock.NewScriptLock`
}

func refresher(rdb *redis.Client) *ownerlock.Refresher {
	return ownerlock.NewRefresher(rdb, "lock:pack", "red_pack")
}
