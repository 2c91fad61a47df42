package regions

import (
	"context"
	"sync"
	"time"
)

// A goroutine the section does not wait for, or a function handed to a
// timer or a pool, may run after the release: it is not in the section.

type pool struct{ tasks chan func() }

func (p *pool) Submit(fn func()) { p.tasks <- fn }

var workers = &pool{tasks: make(chan func(), 8)}

func startsAndLeaves(ctx context.Context) {
	if !rdb.SetNX(ctx, "a1", "v", time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "a1")
	go free()
	go func() {
		free()
	}()
	time.AfterFunc(time.Second, free)
	workers.Submit(func() { free() })
	held() // want `held in lock "a1" \(SET NX\) ttl=1s`
}

// A goroutine the section waits for runs under the lock.
func waitsForIt(ctx context.Context) {
	if !rdb.SetNX(ctx, "a2", "v", time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "a2")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		held() // want `held in lock "a2" \(SET NX\) ttl=1s`
	}()
	wg.Wait()
	done := make(chan struct{})
	go func() {
		held() // want `held in lock "a2" \(SET NX\) ttl=1s`
		close(done)
	}()
	<-done
}

// A goroutine that releases the lock itself holds it up to its release.
func rebuildsAsync(ctx context.Context) {
	if !rdb.SetNX(ctx, "a3", "v", time.Second).Val() {
		return
	}
	go func() {
		defer rdb.Del(context.Background(), "a3")
		held() // want `held in lock "a3" \(SET NX\) ttl=1s`
	}()
}
