// Package taskworker renews its task locks through taskstore's one-shot
// RenewLock in a loop of its own: the keep-alive is here, where the store
// cannot see it.
package taskworker

import (
	"context"
	"log"
	"time"

	"taskstore"
)

type Worker struct{ store *taskstore.Store }

func (w *Worker) Run(ctx context.Context, id string, work func(context.Context)) {
	ok, err := w.store.AcquireLock(ctx, id, "token", 30*time.Second)
	if err != nil || !ok {
		return
	}
	defer w.store.ReleaseLock(ctx, id)
	go w.renew(ctx, id)
	work(ctx)
}

func (w *Worker) renew(ctx context.Context, id string) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := w.store.RenewLock(ctx, id, 30*time.Second); err != nil { // want `this keep-alive renews with PEXPIRE \(in Store.RenewLock at store.go:\d+\) of lock .* but drops the outcome`
				log.Printf("renew %s: %v", id, err)
				return
			}
		}
	}
}

// Near miss: the same loop cancels the work when a renewal fails.
func (w *Worker) RunCancel(ctx context.Context, id string, work func(context.Context)) {
	ok, err := w.store.AcquireLock(ctx, id, "token", 30*time.Second)
	if err != nil || !ok {
		return
	}
	defer w.store.ReleaseLock(ctx, id)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := w.store.RenewLock(ctx, id, 30*time.Second); err != nil {
					cancel()
					return
				}
			}
		}
	}()
	work(ctx)
}

// Near miss: the loop renews through a helper whose owner-checked renewal
// records the loss itself (Renew clears IsLeader on 0): the helper's
// package judges it.
func Lead(ctx context.Context, e *taskstore.Elector, work func(context.Context)) {
	e.TryAcquire(ctx)
	if !e.IsLeader {
		return
	}
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := e.Renew(ctx); err != nil {
					log.Printf("renew: %v", err)
				}
			}
		}
	}()
	work(ctx)
}
