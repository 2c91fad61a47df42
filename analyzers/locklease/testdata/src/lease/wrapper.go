package lease

import (
	"context"
	"sync"
)

// SharedLock keeps only the cancel func: the lock-lost context is gone,
// and the work runs in the callers of Lock.
type SharedLock struct {
	key    string
	cancel context.CancelFunc
}

func (l *SharedLock) Lock(ctx context.Context) error {
	_, cancel, err := rlocker.WithContext(ctx, l.key) // want `rueidislock Locker.WithContext returns a context that is cancelled when the lock is lost, but it is assigned to _: nothing can learn that the lock is gone`
	if err != nil {
		return err
	}
	l.cancel = cancel
	return nil
}

func (l *SharedLock) Unlock() { l.cancel() }

// WatchedLock keeps both and hands the context out.
type WatchedLock struct {
	key    string
	cancel context.CancelFunc
}

func (l *WatchedLock) Lock(ctx context.Context) (context.Context, error) {
	lost, cancel, err := rlocker.WithContext(ctx, l.key)
	if err != nil {
		return nil, err
	}
	l.cancel = cancel
	return lost, nil
}

// KeyedLocks keeps the cancel funcs by key, in a sync.Map or a map: the
// lock outlives Lock just the same.
type KeyedLocks struct {
	locks  sync.Map
	byKey  map[string]context.CancelFunc
	cancel context.CancelFunc
}

func (k *KeyedLocks) Lock(ctx context.Context, key string) error {
	_, cancel, err := rlocker.TryWithContext(ctx, key) // want `rueidislock Locker.TryWithContext returns a context that is cancelled when the lock is lost, but it is assigned to _: nothing can learn that the lock is gone`
	if err != nil {
		return err
	}
	k.locks.Store(key, cancel)
	return nil
}

func (k *KeyedLocks) LockMapped(ctx context.Context, key string) error {
	_, cancel, err := rlocker.TryWithContext(ctx, key) // want `rueidislock Locker.TryWithContext returns a context that is cancelled when the lock is lost, but it is assigned to _: nothing can learn that the lock is gone`
	if err != nil {
		return err
	}
	k.byKey[key] = cancel
	return nil
}

// Near miss: the lock-lost context is handed out with the lock.
func (k *KeyedLocks) LockWatched(ctx context.Context, key string) (context.Context, error) {
	lost, cancel, err := rlocker.TryWithContext(ctx, key)
	if err != nil {
		return nil, err
	}
	k.locks.Store(key, cancel)
	return lost, nil
}

// NamedLocks hands the cancel func back as a named result, by a bare
// return: the lock outlives Get as it does when returned by name.
type NamedLocks struct{}

func (NamedLocks) Get(ctx context.Context, key string) (unlock context.CancelFunc, err error) {
	_, unlock, err = rlocker.TryWithContext(ctx, key) // want `rueidislock Locker.TryWithContext returns a context that is cancelled when the lock is lost, but it is assigned to _: nothing can learn that the lock is gone`
	if unlock == nil {
		unlock = func() {}
	}
	return
}

// Near miss: a named result that no bare return hands back; the lock
// ends here, before any work.
func (NamedLocks) Probe(ctx context.Context, key string) (unlock context.CancelFunc, err error) {
	_, unlock, err = rlocker.TryWithContext(ctx, key)
	if err != nil {
		return nil, err
	}
	unlock()
	return func() {}, nil
}
