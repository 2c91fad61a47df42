// Package shopstock takes redsync locks through shopglobal's variable
// and never imports redsync itself.
package shopstock

import (
	"fmt"

	"gorm.io/gorm"

	"shopglobal"
)

type Inventory struct {
	Goods int
	Stock int
}

func Sell(goods []int) error {
	tx := shopglobal.DB.Begin()
	for _, id := range goods {
		mutex := shopglobal.RedisMutex.NewMutex(fmt.Sprintf("good_%d", id))
		if err := mutex.Lock(); err != nil {
			return err
		}
		var inv Inventory
		if err := tx.Where("goods = ?", id).Take(&inv).Error; err != nil {
			return err
		}
		inv.Stock--
		if err := tx.Save(&inv).Error; err != nil { // want `gorm DB.Save under lock fmt.Sprintf\("good_%d", id\) \(redsync Mutex.Lock\) carries no fencing token`
			return err
		}
		if ok, err := mutex.Unlock(); err != nil || !ok {
			return err
		}
	}
	return tx.Commit().Error
}

// Near miss: the shared Go mutex guards one process only; there is no
// lease to outlive.
func Restock(db *gorm.DB, id int) error {
	shopglobal.Mu.Lock()
	defer shopglobal.Mu.Unlock()
	return db.Model(&Inventory{}).Where("goods = ?", id).Update("stock", 10).Error
}
