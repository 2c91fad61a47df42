package fence

import (
	"context"
	"errors"
	"time"

	"xorm.io/xorm"
)

var engine *xorm.Engine

type item struct {
	ID    int64
	Name  string
	Price int64
	Fence int64
}

func takeItemLock(ctx context.Context, name, id string) error {
	ok, err := rdb.SetNX(ctx, "item_lock_"+name, id, 10*time.Second).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	return nil
}

// xorm writes under a lock: the insert, the update in a chain.
func addItem(ctx context.Context, it *item, id string) error {
	if err := takeItemLock(ctx, it.Name, id); err != nil {
		return err
	}
	defer rdb.Del(ctx, "item_lock_"+it.Name)
	_, err := engine.Insert(it) // want `xorm Engine.Insert under lock "item_lock_" \+ item.Name \(SET NX \(in fence.takeItemLock at xorm.go:\d+\)\) carries no fencing token`
	return err
}

func repriceItem(ctx context.Context, it *item, id string) error {
	if err := takeItemLock(ctx, it.Name, id); err != nil {
		return err
	}
	defer rdb.Del(ctx, "item_lock_"+it.Name)
	_, err := engine.Where("id = ?", it.ID).Cols("price").Update(it) // want `xorm Session.Update under lock "item_lock_" \+ item.Name \(SET NX \(in fence.takeItemLock at xorm.go:\d+\)\) carries no fencing token`
	return err
}

// Exec takes its statement first: the delete is reported, the read is
// not.
func clearItem(ctx context.Context, it *item, id string) error {
	if err := takeItemLock(ctx, it.Name, id); err != nil {
		return err
	}
	defer rdb.Del(ctx, "item_lock_"+it.Name)
	if _, err := engine.Exec("SELECT 1"); err != nil {
		return err
	}
	_, err := engine.Exec("DELETE FROM items WHERE id = ?", it.ID) // want `xorm Engine.Exec under lock "item_lock_" \+ item.Name \(SET NX \(in fence.takeItemLock at xorm.go:\d+\)\) carries no fencing token`
	return err
}

// Reads under the lock, and an update whose WHERE checks the lease's
// fence: nothing to report.
func readItem(ctx context.Context, it *item, id string) error {
	if err := takeItemLock(ctx, it.Name, id); err != nil {
		return err
	}
	defer rdb.Del(ctx, "item_lock_"+it.Name)
	_, err := engine.Where("id = ?", it.ID).Get(it)
	return err
}

func repriceFenced(ctx context.Context, it *item) error {
	lease, err := locker.TryAcquire(ctx, "item:"+it.Name, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	it.Fence = int64(lease.Fence())
	_, err = engine.Where("id = ?", it.ID).And("fence < ?", lease.Fence()).Update(it)
	return err
}

// The fence only stored, never compared: a stale holder's update lands.
func repriceFenceStored(ctx context.Context, it *item) error {
	lease, err := locker.TryAcquire(ctx, "item:"+it.Name, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	it.Fence = int64(lease.Fence())
	_, err = engine.Where("id = ?", it.ID).Update(it) // want `the fencing token reaches this xorm Session.Update, but the statement has no fence condition`
	return err
}
