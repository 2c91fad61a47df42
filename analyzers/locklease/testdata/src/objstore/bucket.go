package objstore

import (
	"context"
	"os"

	"objcore"
)

type Bucket struct {
	Locker objcore.Locker
	upload func(ctx context.Context, path string) error
}

// The lease context of a lock API behind an interface goes to _, and the
// section goes on with the request's context.
func (b *Bucket) Put(ctx context.Context, path string) error {
	_, cancel, err := b.Locker.Lock(ctx, path) // want `objcore Locker.Lock returns a context that is cancelled when the lock is lost, but it is assigned to _ and the section goes on with ctx`
	if err != nil {
		return err
	}
	defer cancel()
	return b.upload(ctx, path)
}

// Near miss: the lease context is kept and handed to the work.
func (b *Bucket) PutKept(ctx context.Context, path string) error {
	lockCtx, cancel, err := b.Locker.Lock(ctx, path)
	if err != nil {
		return err
	}
	defer cancel()
	return b.upload(lockCtx, path)
}

// Near miss: the section uses no context at all (as with rueidislock's
// own WithContext, that alone is not reported).
func (b *Bucket) Touch(ctx context.Context, path string) error {
	_, cancel, err := b.Locker.Lock(ctx, path)
	if err != nil {
		return err
	}
	defer cancel()
	return os.WriteFile(path, nil, 0o644)
}
