package bench

import (
	"context"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// openEmbedded starts miniredis on loopback. miniredis only moves TTLs when
// told to, so a pump advances its clock in step with the real one; without
// it no lock would ever expire and the safety workload would show nothing.
func (t *Target) openEmbedded(ctx context.Context, spec Spec) error {
	m, err := miniredis.Run()
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				m.FastForward(now.Sub(last))
				last = now
			}
		}
	}()
	t.closers = append(t.closers, func() {
		close(stop)
		<-done
		m.Close()
	})
	t.Kind = KindEmbedded
	t.Endpoints = []Endpoint{{Addr: m.Addr()}}
	t.Note = "figures come from the embedded miniredis server (in-process, single-threaded Go); measure your own Redis with --redis URL or --spawn"
	if err := t.connectNodes(ctx, spec); err != nil {
		return err
	}
	t.Server = "miniredis (embedded)"
	return nil
}
