// Package resultuser locks through resultglobal's handle without
// importing redsync.
package resultuser

import "resultglobal"

func work() {}

func Discarded(id string) {
	m := resultglobal.RS.NewMutex("job:" + id)
	m.Lock() // want `the error of redsync Mutex.Lock is discarded`
	defer m.Unlock()
	work()
}

// Near miss: the error is checked.
func Checked(id string) error {
	m := resultglobal.RS.NewMutex("job:" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	work()
	return nil
}
