package lease

import (
	"context"

	"github.com/valkey-io/valkey-go/valkeylock"
)

var vlocker valkeylock.Locker

// valkey-go's fork of rueidislock: the same lock-loss context.
func valkeyDropped(ctx context.Context) error {
	_, cancel, err := vlocker.WithContext(ctx, "networks") // want `valkeylock Locker.WithContext returns a context that is cancelled when the lock is lost, but it is assigned to _ and the section goes on with ctx`
	if err != nil {
		return err
	}
	defer cancel()
	return work(ctx)
}

func valkeyKept(ctx context.Context) error {
	lockCtx, cancel, err := vlocker.WithContext(ctx, "networks")
	if err != nil {
		return err
	}
	defer cancel()
	return work(lockCtx)
}
