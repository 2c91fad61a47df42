package resultmutex

import (
	"context"
	"log"
)

func job() {}

func Run(ctx context.Context, m *Mutex) {
	if ok, _ := m.TryLock(ctx); !ok { // want `when Mutex.TryLock \(SetNX at mutex.go:30\) fails \(!ok\), this branch falls through into the code that needs the lock: job\(...\) runs without it`
		log.Println("another instance runs the job")
	}
	defer m.Unlock(ctx)
	job()
}

func RunChecked(ctx context.Context, m *Mutex) error {
	ok, err := m.TryLock(ctx)
	if err != nil || !ok {
		return err
	}
	defer m.Unlock(ctx)
	job()
	return nil
}
