package lease

import (
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"
)

// ContinueLock extends a redsync mutex every 5 s until stop; another
// package starts it with go. A failed Extend is only logged, and the
// holder is never told.
func ContinueLock(m *redsync.Mutex, stop <-chan struct{}) {
	ticker := time.NewTicker(5 * time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			ok, err := m.Extend()
			if !ok { // want `this keep-alive renews with redsync Mutex.Extend but drops the outcome`
				log.Println("extend failed:", err)
				return
			}
		case <-stop:
			return
		}
	}
}

// Near miss: the same keep-alive closes the channel the holder watches.
func ContinueLockOrSignal(m *redsync.Mutex, stop <-chan struct{}, lost chan<- struct{}) {
	ticker := time.NewTicker(5 * time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			if ok, _ := m.Extend(); !ok {
				close(lost)
				return
			}
		case <-stop:
			return
		}
	}
}

// Near miss: a loop over mutexes that extends each once is no keep-alive
// (no period); its caller decides what a false means.
func BumpAll(ms []*redsync.Mutex) int {
	n := 0
	for _, m := range ms {
		if ok, _ := m.Extend(); ok {
			n++
		}
	}
	return n
}

// The acquire hands the holder the channel the keep-alive closes when it
// returns: a failed Extend reaches the holder through its deferred close.
type heldMutex struct {
	m    *redsync.Mutex
	stop chan struct{}
}

func (h *heldMutex) tryAcquire() (<-chan struct{}, error) {
	if err := h.m.Lock(); err != nil {
		return nil, err
	}
	lost := make(chan struct{})
	h.stop = make(chan struct{})
	go extendUntilLost(h.m, lost, h.stop)
	return lost, nil
}

func extendUntilLost(m *redsync.Mutex, done chan struct{}, stop <-chan struct{}) {
	defer close(done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if ok, _ := m.Extend(); !ok {
				return
			}
		}
	}
}

// The same keep-alive, but the channel it closes is one only the release
// waits on: the holder is never told.
func (h *heldMutex) acquireQuiet() error {
	if err := h.m.Lock(); err != nil {
		return err
	}
	finished := make(chan struct{})
	h.stop = make(chan struct{})
	go extendUntilFinished(h.m, finished, h.stop)
	go func() { <-finished }()
	return nil
}

func extendUntilFinished(m *redsync.Mutex, done chan struct{}, stop <-chan struct{}) {
	defer close(done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if ok, _ := m.Extend(); !ok { // want `this keep-alive renews with redsync Mutex.Extend but drops the outcome`
				return
			}
		}
	}
}
