package fence

import (
	"fmt"

	"github.com/go-redsync/redsync/v4"
)

// One lock per item, taken in order and kept in a slice that a deferred
// loop releases: the stock updates are under every lock.
func checkout(items []string) error {
	var held []*redsync.Mutex
	for _, id := range items {
		mu := rs.NewMutex("stock:" + id)
		if err := mu.Lock(); err != nil {
			for _, m := range held {
				m.Unlock()
			}
			return err
		}
		held = append(held, mu)
	}
	defer func() {
		for _, m := range held {
			m.Unlock()
		}
	}()
	for _, id := range items {
		if err := gdb.Exec("UPDATE stock SET n = n - 1 WHERE id = ?", id).Error; err != nil { // want `gorm DB.Exec under lock "stock:" \+ id \(redsync Mutex.Lock\) carries no fencing token`
			return err
		}
	}
	return nil
}

// Near miss: the loop releases every lock before the audit insert.
func checkoutThenAudit(items []string) error {
	var held []*redsync.Mutex
	for _, id := range items {
		mu := rs.NewMutex("stock:" + id)
		if err := mu.Lock(); err != nil {
			return err
		}
		held = append(held, mu)
	}
	for _, m := range held {
		m.Unlock()
	}
	return gdb.Exec("INSERT INTO audit (what) VALUES (?)", fmt.Sprint(items)).Error
}

// Near miss: the slice goes to a helper, which may release them.
func checkoutHanded(items []string) error {
	var held []*redsync.Mutex
	for _, id := range items {
		mu := rs.NewMutex("stock:" + id)
		if err := mu.Lock(); err != nil {
			return err
		}
		held = append(held, mu)
	}
	releaseAll(held)
	return gdb.Exec("INSERT INTO audit (what) VALUES (?)", fmt.Sprint(items)).Error
}

func releaseAll(held []*redsync.Mutex) {
	for _, m := range held {
		m.Unlock()
	}
}
