package bench

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// nopLocker grants every Acquire at once.
type nopLocker string

func (l nopLocker) Name() string { return string(l) }
func (l nopLocker) Close() error { return nil }
func (l nopLocker) TryAcquire(ctx context.Context, key string, ttl time.Duration) (Lease, error) {
	return l.Acquire(ctx, key, ttl)
}
func (l nopLocker) Acquire(context.Context, string, time.Duration) (Lease, error) {
	return nopLease{}, nil
}

type nopLease struct{}

func (nopLease) Release(context.Context) error              { return nil }
func (nopLease) Renew(context.Context, time.Duration) error { return ErrUnsupported }
func (nopLease) Fence() int64                               { return 0 }

// TestClosedLoopSlicesInterleave: a closed-loop phase of three slices or
// more runs interleaved with the other implementations' (run one
// implementation after the other, the slices of one would all come
// first), and each implementation's figures add its slices up: one entry
// per client, the time of all its slices, grants/s over that time.
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
	var ran []string // the implementation of each closed-loop slice, in order
	r := &runner{t: &Target{}, cfg: cfg, prefix: "t", prog: func(_, _ int, label string) {
		if strings.Contains(label, "closed loop") {
			name, _, _ := strings.Cut(strings.TrimPrefix(label, "contention: "), ",")
			ran = append(ran, name)
		}
	}}
	rep := &Report{Config: cfg}
	if err := r.contention(context.Background(), rep, []Locker{nopLocker("a"), nopLocker("b")}); err != nil {
		t.Fatal(err)
	}
	if len(ran) != 8 {
		t.Fatalf("%d closed-loop slices ran (%v), want 4 of each implementation", len(ran), ran)
	}
	for k := 0; k < len(ran); k += 2 {
		if round := ran[k : k+2]; !slices.Contains(round, "a") || !slices.Contains(round, "b") {
			t.Errorf("slices ran %v: round %d is not one slice of each implementation", ran, k/2+1)
		}
	}
	for _, c := range rep.Contend {
		if c.Mode != "closed" {
			continue
		}
		if len(c.PerClient) != 2 || c.Clients != 2 {
			t.Errorf("%s: %d per-client entries for %d clients, want 2", c.Impl, len(c.PerClient), c.Clients)
		}
		if c.Duration < int64(cfg.Duration) {
			t.Errorf("%s: phase time %v, want at least %v (its slices added up)", c.Impl, time.Duration(c.Duration), cfg.Duration)
		}
		if want := float64(c.Grants) / time.Duration(c.Duration).Seconds(); c.GrantsPerSec != want {
			t.Errorf("%s: %d grants, %.1f grants/s, want %.1f", c.Impl, c.Grants, c.GrantsPerSec, want)
		}
	}
	if len(rep.Contend) != 4 || rep.Contend[0].Impl != "a" || rep.Contend[1].Impl != "b" {
		t.Errorf("sections out of order: %d", len(rep.Contend))
	}
	// The report says so.
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "closed loops ran in 4 slices of 30ms, interleaved") {
		t.Errorf("the text report does not say the phases were sliced:\n%s", b.String())
	}
}
