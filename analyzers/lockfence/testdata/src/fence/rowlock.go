package fence

import (
	"context"
	"database/sql"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// A write in a transaction that first locked its rows (SELECT ... FOR
// UPDATE) is serialised by the database: the late holder's transaction
// waits for the newer one's and re-reads the state it wrote.

func loadOrderTx(tx *gorm.DB, id string, forUpdate bool) (*Order, error) {
	var o Order
	q := tx
	if forUpdate {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	return &o, q.Where("id = ?", id).First(&o).Error
}

func payLocked(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:pay:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return gdb.Transaction(func(tx *gorm.DB) error {
		o, err := loadOrderTx(tx, id, true)
		if err != nil || o.State == "paid" {
			return err
		}
		return tx.Model(&Order{}).Where("id = ?", id).Update("state", "paid").Error
	})
}

// The same helper asked not to lock: nothing serialises the write.
func payUnlocked(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:pay2:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return gdb.Transaction(func(tx *gorm.DB) error {
		o, err := loadOrderTx(tx, id, false)
		if err != nil || o.State == "paid" {
			return err
		}
		return tx.Model(&Order{}).Where("id = ?", id).Update("state", "paid").Error // want `gorm DB.Update under lock "lock:pay2:" \+ id \(redislock Client.Obtain\) carries no fencing token`
	})
}

// A row lock taken after the write does not guard it.
func lockAfterWrite(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:pay3:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return gdb.Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Order{}).Where("id = ?", id).Update("state", "paid").Error; err != nil { // want `gorm DB.Update under lock "lock:pay3:" \+ id \(redislock Client.Obtain\) carries no fencing token`
			return err
		}
		var o Order
		return tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).First(&o).Error
	})
}

// database/sql: SELECT ... FOR UPDATE, then the UPDATE, in one transaction.
func refundLocked(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:refund:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var state string
	if err := tx.QueryRowContext(ctx, "SELECT state FROM orders WHERE id = $1 FOR UPDATE", id).Scan(&state); err != nil {
		return err
	}
	if state != "paid" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET state = 'refunded' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit()
}

// The row lock is taken through the pool, not the transaction: it ends
// with its own statement and guards nothing.
func lockOnPool(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:refund2:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	var state string
	if err := db.QueryRowContext(ctx, "SELECT state FROM orders WHERE id = $1 FOR UPDATE", id).Scan(&state); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET state = 'refunded' WHERE id = $1", id); err != nil { // want `database/sql Tx.ExecContext under lock "lock:refund2:" \+ id \(redislock Client.Obtain\) carries no fencing token`
		return err
	}
	return tx.Commit()
}

// A helper that locks the row and writes in its own transaction.
func applyRefundTx(tx *sql.Tx, id string) error {
	var state string
	if err := tx.QueryRow("SELECT state FROM orders WHERE id = ? LOCK IN SHARE MODE", id).Scan(&state); err != nil {
		return err
	}
	_, err := tx.Exec("UPDATE orders SET state = 'refunded' WHERE id = ?", id)
	return err
}

func refundViaHelper(ctx context.Context, tx *sql.Tx, id string) error {
	lock, err := rl.Obtain(ctx, "lock:refund3:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return applyRefundTx(tx, id)
}
