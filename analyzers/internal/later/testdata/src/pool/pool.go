package pool

import (
	"context"
	"sync"
	"time"
)

type Task struct {
	Fn   func() error
	Prio int
}

type Pool struct {
	queue   chan *Task
	mu      sync.Mutex
	pending []func()
}

// Handed over: sent, stored, started and not waited for, timed.

func (p *Pool) Submit(t *Task) error { // want Submit:"later\\[0\\]"
	p.queue <- t
	return nil
}

func (p *Pool) SubmitFunc(fn func() error) error { // want SubmitFunc:"later\\[0\\]"
	task := &Task{Fn: fn, Prio: 1}
	return p.Submit(task)
}

var global = &Pool{}

func Go(fn func() error) error { return global.SubmitFunc(fn) } // want Go:"later\\[0\\]"

func (p *Pool) Defer(fn func()) { // want Defer:"later\\[0\\]"
	p.mu.Lock()
	p.pending = append(p.pending, fn)
	p.mu.Unlock()
}

func Spawn(name string, fn func()) { go fn() } // want Spawn:"later\\[1\\]"

func Fire(fns ...func()) { // want Fire:"later\\[0\\]"
	for _, f := range fns {
		go f()
	}
}

func After(fn func()) { time.AfterFunc(time.Second, fn) } // want After:"later\\[0\\]"

// Run before they return: called, waited for, returned.

func Run(fn func() error) error { return fn() }

func Parallel(fns ...func()) {
	var wg sync.WaitGroup
	for _, f := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
}

func Await(fn func() int) int {
	ch := make(chan int)
	go func() { ch <- fn() }()
	return <-ch
}

func WithTx(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }

func Build(fn func()) *Task { return &Task{Fn: func() error { fn(); return nil }} }

func Once(o *sync.Once, fn func()) { o.Do(fn) }
