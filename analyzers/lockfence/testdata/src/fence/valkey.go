package fence

import (
	"context"

	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeylock"
)

var (
	vk      valkey.Client
	vlocker valkeylock.Locker
)

// valkey-go is rueidis's fork: its built commands are read the same way.
// Allocating a subnet under the lock writes the shared set.
func allocate(ctx context.Context, subnet string) error {
	lockCtx, cancel, err := vlocker.WithContext(ctx, "networks")
	if err != nil {
		return err
	}
	defer cancel()
	if _, err := vk.Do(lockCtx, vk.B().Smembers().Key("reserved").Build()).AsStrSlice(); err != nil {
		return err
	}
	return vk.Do(lockCtx, vk.B().Sadd().Key("reserved").Member(subnet).Build()).Error() // want `Redis SADD under lock "networks" \(valkeylock Locker.WithContext\) carries no fencing token`
}

// Reading under the lock is no write.
func listReserved(ctx context.Context) ([]string, error) {
	lockCtx, cancel, err := vlocker.WithContext(ctx, "networks")
	if err != nil {
		return nil, err
	}
	defer cancel()
	return vk.Do(lockCtx, vk.B().Smembers().Key("reserved").Build()).AsStrSlice()
}
