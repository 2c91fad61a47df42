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
	if state != "paid" {
		return nil
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

// The row is locked only to write the balance: the decision to grant was
// made before, on reads the row lock does not cover.
func grantReward(tx *gorm.DB, user string) error {
	var balance int64
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Table("users").Where("id = ?", user).First(&balance).Error; err != nil {
		return err
	}
	return tx.Model(&Order{}).Where("id = ?", user).Update("balance", balance+10).Error // want `gorm DB.Update under lock "lock:task:" \+ user \(redislock Client.Obtain\) carries no fencing token`
}

func completeTask(ctx context.Context, user string) error {
	lock, err := rl.Obtain(ctx, "lock:task:"+user, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tx := gdb.Begin()
	var done int64
	if err := tx.Table("completions").Where("user = ?", user).First(&done).Error; err != nil || done > 0 {
		return err
	}
	if err := grantReward(tx, user); err != nil {
		return err
	}
	return tx.Commit().Error
}

// gorm v2 ignores the v1 query option: no row is locked.
func v1Option(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:v1:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return gdb.Transaction(func(tx *gorm.DB) error {
		var o Order
		if err := tx.Set("gorm:query_option", "FOR UPDATE").Where("id = ?", id).First(&o).Error; err != nil || o.State == "paid" {
			return err
		}
		return tx.Model(&Order{}).Where("id = ?", id).Update("state", "paid").Error // want `gorm DB.Update under lock "lock:v1:" \+ id \(redislock Client.Obtain\) carries no fencing token`
	})
}

// A gorm update whose Where requires the state it changes moves the row
// on once: a stale holder's update finds the row changed.
func cancelOnce(ctx context.Context, no string) error {
	lock, err := rl.Obtain(ctx, "lock:cancel:"+no, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	res := gdb.Model(&Order{}).Where("no = ? AND state = ?", no, "pending").Update("state", "cancelled")
	if res.Error != nil || res.RowsAffected == 0 {
		return res.Error
	}
	return gdb.Model(&Order{}).Where("no = ? AND state = 'cancelled'", no).
		Updates(map[string]any{"state": "refunded", "note": "auto"}).Error
}

// The Where tests other columns: nothing refuses a stale holder's update.
func cancelAny(ctx context.Context, no, owner string) error {
	lock, err := rl.Obtain(ctx, "lock:cancel2:"+no, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return gdb.Model(&Order{}).Where("no = ? AND owner = ?", no, owner).Update("state", "cancelled").Error // want `gorm DB.Update under lock "lock:cancel2:" \+ no \(redislock Client.Obtain\) carries no fencing token`
}

// The conditional update claims the order; the stock comes back only for
// the caller whose update changed the row.
func cancelAndRestock(ctx context.Context, no, goods string) error {
	lock, err := rl.Obtain(ctx, "lock:restock:"+no, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	res := gdb.Model(&Order{}).Where("no = ? AND state = ?", no, "pending").Update("state", "cancelled")
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return nil
	}
	return gdb.Model(&Order{}).Where("id = ?", goods).Update("stock", 1).Error
}

// database/sql: the count comes from RowsAffected().
func refundOnce(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:refund-once:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	res, err := db.ExecContext(ctx, "UPDATE orders SET state = 'refunding' WHERE id = ? AND state = 'paid'", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	_, err = db.ExecContext(ctx, "INSERT INTO refunds (order_id) VALUES (?)", id)
	return err
}

// Nobody looks at what the conditional update changed: the restock runs
// for every holder.
func cancelUnchecked(ctx context.Context, no, goods string) error {
	lock, err := rl.Obtain(ctx, "lock:restock2:"+no, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := gdb.Model(&Order{}).Where("no = ? AND state = ?", no, "pending").Update("state", "cancelled").Error; err != nil {
		return err
	}
	return gdb.Model(&Order{}).Where("id = ?", goods).Update("stock", 1).Error // want `gorm DB.Update under lock "lock:restock2:" \+ no \(redislock Client.Obtain\) carries no fencing token`
}

// The claim and the restock live in a helper the section calls: the
// helper's restock runs only for the caller whose update moved the row.
func cancelViaHelper(ctx context.Context, no, goods string) error {
	lock, err := rl.Obtain(ctx, "lock:restock3:"+no, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return claimAndRestock(gdb, no, goods)
}

func claimAndRestock(tx *gorm.DB, no, goods string) error {
	res := tx.Model(&Order{}).Where("no = ? AND state = ?", no, "pending").
		Updates(map[string]any{"state": "cancelled"})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return nil
	}
	return tx.Model(&Order{}).Where("id = ?", goods).Update("stock", 1).Error
}

// The helper never looks at what its conditional update changed: the
// restock runs for every holder, and the report lands on the restock (the
// helper is this section's code moved out), not on the guarded update.
func cancelViaUncheckedHelper(ctx context.Context, no, goods string) error {
	lock, err := rl.Obtain(ctx, "lock:restock4:"+no, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return claimAndRestockUnchecked(gdb, no, goods)
}

func claimAndRestockUnchecked(tx *gorm.DB, no, goods string) error {
	if err := tx.Model(&Order{}).Where("no = ? AND state = ?", no, "pending").
		Updates(map[string]any{"state": "cancelled"}).Error; err != nil {
		return err
	}
	return tx.Model(&Order{}).Where("id = ?", goods).Update("stock", 1).Error // want `gorm DB.Update under lock "lock:restock4:" \+ no \(redislock Client.Obtain\) carries no fencing token`
}

type outboxEvent struct {
	ID      int64
	Payload []byte
}

// An outbox claim: the locking read selects only rows still waiting
// (status = 0) and skips rows another claimant holds; the UPDATE moves the
// row out of that state. A stale holder's read no longer returns a row a
// newer holder claimed: the read's own WHERE is the check under the lock.
func claimNextEvent(ctx context.Context) error {
	lock, err := rl.Obtain(ctx, "lock:outbox", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var ev outboxEvent
	if err := tx.QueryRowContext(ctx, "SELECT id, payload FROM outbox_events WHERE status = 0 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED").Scan(&ev.ID, &ev.Payload); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE outbox_events SET status = 1, attempts = attempts + 1 WHERE id = ?", ev.ID); err != nil {
		return err
	}
	return tx.Commit()
}

// The locking read selects the row by its id only: a stale holder's read
// returns it again after the newer holder's commit, and nothing refuses
// its update.
func claimEventByID(ctx context.Context, id int64) error {
	lock, err := rl.Obtain(ctx, "lock:outbox2", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var ev outboxEvent
	if err := tx.QueryRowContext(ctx, "SELECT id, payload FROM outbox_events WHERE id = ? FOR UPDATE", id).Scan(&ev.ID, &ev.Payload); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE outbox_events SET status = 1 WHERE id = ?", ev.ID); err != nil { // want `database/sql Tx.ExecContext under lock "lock:outbox2" \(redislock Client.Obtain\) carries no fencing token`
		return err
	}
	return tx.Commit()
}

// The read's condition is on another table's column: the update of the
// accounts row is not what the read selected on.
func claimOtherTable(ctx context.Context) error {
	lock, err := rl.Obtain(ctx, "lock:outbox3", 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var ev outboxEvent
	if err := tx.QueryRowContext(ctx, "SELECT id, payload FROM outbox_events WHERE status = 0 LIMIT 1 FOR UPDATE").Scan(&ev.ID, &ev.Payload); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET status = 1 WHERE id = ?", ev.ID); err != nil { // want `database/sql Tx.ExecContext under lock "lock:outbox3" \(redislock Client.Obtain\) carries no fencing token`
		return err
	}
	return tx.Commit()
}

// The row lands in a struct's fields, and the state read under the lock
// is tested before the write.
func refundRow(ctx context.Context, id string) error {
	lock, err := rl.Obtain(ctx, "lock:refund4:"+id, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var o Order
	if err := tx.QueryRowContext(ctx, "SELECT state FROM orders WHERE id = $1 FOR UPDATE", id).Scan(&o.State); err != nil {
		return err
	}
	if o.State != "paid" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET state = 'refunded' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit()
}
