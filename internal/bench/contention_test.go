package bench

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// logLocker grants every Acquire at once and logs which implementation
// granted, in order.
type logLocker struct {
	name string
	mu   *sync.Mutex
	log  *[]string
}

func (l logLocker) Name() string { return l.name }
func (l logLocker) Close() error { return nil }
func (l logLocker) TryAcquire(ctx context.Context, key string, ttl time.Duration) (Lease, error) {
	return l.Acquire(ctx, key, ttl)
}

func (l logLocker) Acquire(context.Context, string, time.Duration) (Lease, error) {
	l.mu.Lock()
	if n := len(*l.log); n == 0 || (*l.log)[n-1] != l.name {
		*l.log = append(*l.log, l.name)
	}
	l.mu.Unlock()
	return logLease{}, nil
}

type logLease struct{}

func (logLease) Release(context.Context) error              { return nil }
func (logLease) Renew(context.Context, time.Duration) error { return ErrUnsupported }
func (logLease) Fence() int64                               { return 0 }

// TestClosedLoopSlicesInterleave: a closed-loop phase of three slices or
// more runs interleaved with the other implementations' (a run of one
// implementation after the other would log two stretches), and each
// implementation's figures add its slices up: one entry per client, and
// grants/s over the time its own slices took.
func TestClosedLoopSlicesInterleave(t *testing.T) {
	defer func(d time.Duration) { sliceLen = d }(sliceLen)
	sliceLen = 30 * time.Millisecond
	cfg := DefaultConfig()
	cfg.Sweep, cfg.Clients, cfg.Keys = []int{2}, 2, 1
	cfg.Duration = 4 * sliceLen
	cfg.Hold = 100 * time.Microsecond
	cfg.Rate = 50
	if got := cfg.slices(); got != 4 {
		t.Fatalf("slices = %d, want 4", got)
	}
	var mu sync.Mutex
	var log []string
	lockers := []Locker{logLocker{"a", &mu, &log}, logLocker{"b", &mu, &log}}
	r := &runner{t: &Target{}, cfg: cfg, prefix: "t"}
	rep := &Report{}
	if err := r.contention(context.Background(), rep, lockers); err != nil {
		t.Fatal(err)
	}
	// The open loop (two more stretches) follows the closed one.
	if closed := len(log) - 2; closed < 4 {
		t.Errorf("closed loop ran in %d stretches (%v), want the 4 slices of each implementation interleaved", closed, log)
	}
	for _, c := range rep.Contend {
		if c.Mode != "closed" {
			continue
		}
		if len(c.PerClient) != 2 || c.Clients != 2 {
			t.Errorf("%s: %d per-client entries for %d clients, want 2", c.Impl, len(c.PerClient), c.Clients)
		}
		if c.Duration < int64(cfg.Duration) || c.Duration > int64(2*cfg.Duration) {
			t.Errorf("%s: phase time %v, want about %v (its slices added up)", c.Impl, time.Duration(c.Duration), cfg.Duration)
		}
		if want := float64(c.Grants) / time.Duration(c.Duration).Seconds(); c.Grants == 0 || c.GrantsPerSec != want {
			t.Errorf("%s: %d grants, %.1f grants/s, want %.1f", c.Impl, c.Grants, c.GrantsPerSec, want)
		}
	}
	if len(rep.Contend) != 4 || rep.Contend[0].Impl != "a" || rep.Contend[1].Impl != "b" {
		t.Errorf("sections out of order: %d", len(rep.Contend))
	}
	// The report says so.
	rep.Config = cfg
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "closed loops ran in 4 slices of 30ms, interleaved") {
		t.Errorf("the text report does not say the phases were sliced:\n%s", b.String())
	}
}
