package use

import (
	"sync"

	"golang.org/x/sync/errgroup"

	"pool"
)

func held() {}

func handler(p *pool.Pool) {
	go held()   // want "async"
	go func() { // want "async"
		held()
	}()
	_ = pool.Go(func() error { held(); return nil })      // want "async"
	_ = p.SubmitFunc(func() error { held(); return nil }) // want "async"
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		held()
	}()
	_ = pool.Run(func() error { held(); return nil })
	pool.Once(&sync.Once{}, held)
	wg.Wait()
}

// A wait on a group the goroutine does not touch does not wait for it.
func unrelated() {
	var wg sync.WaitGroup
	go held() // want "async"
	wg.Wait()
}

type server struct{ wg sync.WaitGroup }

func (s *server) fanOut() {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		held()
	}()
	s.wg.Wait()
}

func awaited() int {
	ch := make(chan int, 1)
	go func() { held(); ch <- 1 }()
	return <-ch
}

// Only a literal's body runs later: a func value or a plain value
// passed along has nothing here to leave out.
func relay(fn func()) {
	pool.Spawn("relay", fn)
	_ = global.Submit(&pool.Task{Fn: func() error { held(); return nil }, Prio: 2}) // want "async"
}

var global = &pool.Pool{}

// Handed to a group and waited for on the same group: under the caller.
func grouped() error {
	var g errgroup.Group
	g.Go(func() error { held(); return nil })
	return g.Wait()
}

// Handed to a group nobody waits on.
func detached(g *errgroup.Group) {
	g.Go(func() error { held(); return nil }) // want "async"
}
