package fence

import (
	"context"
	"os"
	"time"

	"gorm.io/gorm"
)

// Writes inside a gorm Transaction closure run under the lock.
func txClosure(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:tx:"+id, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return gdb.Transaction(func(tx *gorm.DB) error {
		return tx.Model(&Order{ID: id}).Update("state", "paid").Error // want `gorm DB.Update under lock "lock:tx:" \+ id \(redislock Client.Obtain\) carries no fencing token`
	})
}

// The closure held in a variable first.
func txClosureVar(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:txv:"+id, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tran := func(tx *gorm.DB) error {
		return tx.Create(&Order{ID: id}).Error // want `gorm DB.Create under lock "lock:txv:" \+ id \(redislock Client.Obtain\) carries no fencing token`
	}
	return gdb.Transaction(tran)
}

// Files replaced or removed under the lock.
func rotate(ctx context.Context, path string) error {
	lock, err := rl.Obtain(ctx, "lock:rotate", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := os.Rename(path, path+".1"); err != nil { // want `os.Rename under lock "lock:rotate" \(redislock Client.Obtain\) carries no fencing token`
		return err
	}
	return os.Remove(path + ".2")
}

// Near miss: the file is only read.
func readConfig(ctx context.Context, path string) ([]byte, error) {
	lock, err := rl.Obtain(ctx, "lock:config", 10*time.Second, nil)
	if err != nil {
		return nil, err
	}
	defer lock.Release(ctx)
	return os.ReadFile(path)
}
