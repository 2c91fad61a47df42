// Package shopglobal holds a service's shared handles, as many projects'
// global packages do. It imports redsync but takes no lock itself.
package shopglobal

import (
	"sync"

	"github.com/go-redsync/redsync/v4"
	"gorm.io/gorm"
)

var (
	DB         *gorm.DB
	RedisMutex *redsync.Redsync
	Mu         sync.Mutex
)
