// Package errgroup is a stand-in for golang.org/x/sync/errgroup with the
// same shape: Go starts f on a goroutine counted by the group, and Wait
// waits for them all.
package errgroup

import "sync"

type Group struct {
	wg  sync.WaitGroup
	err error
	mu  sync.Mutex
}

func (g *Group) Go(f func() error) { // want Go:"later\\[0\\]"
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}
