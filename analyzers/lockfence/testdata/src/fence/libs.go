package fence

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/jmoiron/sqlx"
	"github.com/redis/rueidis/rueidislock"
	"gorm.io/gorm"
)

var (
	rs   = redsync.New()
	gdb  *gorm.DB
	xdb  *sqlx.DB
	rl   = redislock.New(rdb)
	rlck rueidislock.Locker
)

type Order struct {
	ID    string
	State string
	Fence int64
}

func redsyncGorm(id string) error {
	mu := rs.NewMutex("order:" + id)
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	return gdb.Model(&Order{ID: id}).Update("state", "paid").Error // want `gorm DB.Update under lock "order:" \+ id \(redsync Mutex.Lock\) carries no fencing token`
}

// gorm's Exec takes its statement first: a write is reported, a read
// is not.
func redsyncGormExec(id string) error {
	mu := rs.NewMutex("order:" + id)
	if err := mu.Lock(); err != nil {
		return err
	}
	defer mu.Unlock()
	if err := gdb.Exec("SELECT 1").Error; err != nil {
		return err
	}
	return gdb.Exec("UPDATE orders SET state = ? WHERE id = ?", "paid", id).Error // want `gorm DB.Exec under lock "order:" \+ id \(redsync Mutex.Lock\) carries no fencing token`
}

type Service struct {
	mu *redsync.Mutex
}

func (s *Service) redsyncField(ctx context.Context, id string) error {
	if err := s.mu.LockContext(ctx); err != nil {
		return err
	}
	xdb.MustExec("DELETE FROM carts WHERE id = ?", id) // want `sqlx DB.MustExec under a lock \(redsync Mutex.LockContext\) carries no fencing token`
	_, err := s.mu.UnlockContext(ctx)
	xdb.MustExec("DELETE FROM sessions WHERE id = ?", id)
	return err
}

func redislockSqlx(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "order:"+id, 10*time.Second, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil
	} else if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = xdb.NamedExecContext(ctx, "UPDATE orders SET state = :state WHERE id = :id", &Order{ID: id}) // want `sqlx DB.NamedExecContext under lock "order:" \+ id \(redislock Client.Obtain\) carries no fencing token`
	return err
}

func rueidisFile(ctx context.Context, name string) error {
	ctx, cancel, err := rlck.WithContext(ctx, name)
	if err != nil {
		return err
	}
	defer cancel()
	f, err := os.Create("/var/run/" + name) // want `os.Create under lock name \(rueidislock Locker.WithContext\) carries no fencing token`
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(ctx.Err().Error())
	return err
}

// gorm: the fence checked in the Where chain is a fence; the fence only
// written is not.
func gormSafelock(ctx context.Context, id string) error {
	lease, err := locker.TryAcquire(ctx, "order:"+id, 10*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	err = gdb.WithContext(ctx).Model(&Order{}).Where("id = ? AND fence < ?", id, lease.Fence()).
		Updates(map[string]any{"state": "paid", "fence": lease.Fence()}).Error
	if err != nil {
		return err
	}
	return gdb.Model(&Order{}).Where("id = ?", id).Updates(map[string]any{"fence": lease.Fence()}).Error // want `the fencing token reaches this gorm DB.Updates, but the statement has no fence condition`
}
