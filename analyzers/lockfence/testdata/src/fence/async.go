package fence

import (
	"context"
	"sync"
	"time"
)

// Work a section starts but does not wait for is not under its lock: a
// goroutine or a pool's worker may run it after the release, and the
// write it makes is not one the lock orders.

type workerPool struct{ tasks chan *poolTask }

type poolTask struct{ run func() }

func (p *workerPool) Submit(fn func()) { p.tasks <- &poolTask{run: fn} }

var jobs = &workerPool{tasks: make(chan *poolTask, 16)}

// Near misses: the write runs in a goroutine, in a pool's worker or in a
// helper's goroutine, not waited for.
func markShippedLater(ctx context.Context, id string) {
	if !rdb.SetNX(ctx, "lock:ship:"+id, "1", 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:ship:"+id)
	go func() {
		db.ExecContext(ctx, "UPDATE orders SET shipped = 1 WHERE id = ?", id)
	}()
}

func queueShipment(ctx context.Context, id string) {
	if !rdb.SetNX(ctx, "lock:ship:"+id, "1", 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:ship:"+id)
	jobs.Submit(func() {
		db.ExecContext(ctx, "INSERT INTO shipments (order_id) VALUES (?)", id)
	})
}

func auditShipment(ctx context.Context, id string) {
	if !rdb.SetNX(ctx, "lock:ship:"+id, "1", 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:ship:"+id)
	auditLater(ctx, id)
}

func auditLater(ctx context.Context, id string) {
	go db.ExecContext(ctx, "INSERT INTO audit (order_id) VALUES (?)", id)
}

// The section waits for its goroutines: their writes are under the lock.
func markShippedTogether(ctx context.Context, id string) {
	if !rdb.SetNX(ctx, "lock:ship2:"+id, "1", 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:ship2:"+id)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		db.ExecContext(ctx, "UPDATE orders SET shipped = 1 WHERE id = ?", id) // want `database/sql DB.ExecContext under lock`
	}()
	wg.Wait()
}
