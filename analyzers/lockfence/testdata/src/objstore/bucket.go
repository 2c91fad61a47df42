package objstore

import (
	"context"
	"os"

	"objcore"
)

type Bucket struct {
	Locker  objcore.Locker
	Mutexes objcore.Mutexes
	tmp     string
}

// The lock comes through an interface whose Lock returns a lease context:
// a section, whose writes carry no fence.
func (b *Bucket) PutTags(ctx context.Context, path string, data []byte) error {
	_, cancel, err := b.Locker.Lock(ctx, path)
	if err != nil {
		return err
	}
	defer cancel()
	return os.WriteFile(path+".tags", data, 0o644) // want `os.WriteFile under lock path \(objcore Locker.Lock\) carries no fencing token`
}

// A temp file is this holder's own; the rename is the protected write.
func (b *Bucket) Replace(ctx context.Context, path string, data []byte) error {
	ctx, cancel, err := b.Locker.Lock(ctx, path)
	if err != nil {
		return err
	}
	defer cancel()
	f, err := os.CreateTemp(b.tmp, "put-*")
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path) // want `os.Rename under lock path \(objcore Locker.Lock\) carries no fencing token`
}

// Near miss: an interface Lock that returns no lease context is not read
// as a lock API; its implementation is unknown here.
func (b *Bucket) PutMeta(ctx context.Context, path string, data []byte) error {
	unlock, err := b.Mutexes.Lock(ctx, path)
	if err != nil {
		return err
	}
	defer unlock()
	return os.WriteFile(path+".meta", data, 0o644)
}
