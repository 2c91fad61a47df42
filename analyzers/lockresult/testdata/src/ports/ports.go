// Package ports takes its locks through interfaces that packages
// importing it implement: no fact reaches it, and it has no Redis of its
// own. The names and results of the methods say what they are.
package ports

import (
	"context"
	"errors"
	"log"
	"time"
)

type TaskStore interface {
	AcquireTaskLock(id, node string, ttl time.Duration) (bool, error)
	ReleaseTaskLock(id, node string) error
	MarkDone(id string) error
}

type Locker interface {
	Acquire(ctx context.Context, key string, ttl time.Duration) (token string, ok bool, err error)
	Release(ctx context.Context, key, token string) error
}

type Pool interface {
	AcquireSlot(ctx context.Context, name string) (bool, error)
}

type Worker struct {
	store  TaskStore
	locker Locker
	pool   Pool
}

var errBusy = errors.New("busy")

func (w *Worker) process(id string) {
	locked, err := w.store.AcquireTaskLock(id, "node-1", time.Minute)
	if err != nil { // want `when TaskStore.AcquireTaskLock fails \(err != nil\), this branch falls through into the code that needs the lock: w.store.MarkDone\(...\) runs without it`
		log.Printf("lock: %v", err)
	} else if !locked {
		return
	}
	defer w.store.ReleaseTaskLock(id, "node-1")
	_ = w.store.MarkDone(id)
}

// Near miss: every failure stops.
func (w *Worker) processChecked(id string) error {
	locked, err := w.store.AcquireTaskLock(id, "node-1", time.Minute)
	if err != nil {
		return err
	}
	if !locked {
		return errBusy
	}
	defer w.store.ReleaseTaskLock(id, "node-1")
	return w.store.MarkDone(id)
}

func (w *Worker) invite(ctx context.Context, id string) error {
	token, ok, err := w.locker.Acquire(ctx, "lock:invite:"+id, time.Minute)
	if err != nil { // want `when Locker.Acquire fails \(err != nil\), this branch falls through into the code that needs the lock`
		log.Printf("invite lock failed, bypassing: %v", err)
	} else if !ok {
		return errBusy
	} else {
		defer w.locker.Release(ctx, "lock:invite:"+id, token)
	}
	return w.store.MarkDone(id)
}

// Near miss: a slot of a pool is no lock by its name or its receiver's.
func (w *Worker) run(ctx context.Context, id string) error {
	ok, err := w.pool.AcquireSlot(ctx, id)
	if err != nil {
		log.Printf("pool: %v", err)
	} else if !ok {
		return errBusy
	}
	return w.store.MarkDone(id)
}
