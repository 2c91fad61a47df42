package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// pauseChance is the share of critical sections in which the holder stops
// for SafetyPause, as a stop-the-world pause or a swapped-out process would.
const pauseChance = 0.25

// safety runs the pause-past-TTL scenario for every implementation that
// can take part, without a fence check at the resource, and again with the
// fence enforced for every implementation that issues fencing tokens. The
// scenarios run at the same time, on their own keys: they mostly sleep, and
// what they measure is correctness, not speed.
func (r *runner) safety(ctx context.Context, rep *Report, lockers []Locker) error {
	r.progress("safety: probing fencing tokens")
	type scenario struct {
		l                Locker
		useFence, fenced bool
	}
	var scenarios []scenario
	for _, l := range lockers {
		if s, ok := l.(SelfRenewing); ok && s.SelfRenewing() {
			rep.Skipped = append(rep.Skipped, Skip{Impl: l.Name(), Reason: "safety: its watchdog renews from a background goroutine, which the simulated pause (one sleeping goroutine) does not stop; a real process pause would stop it too"})
			continue
		}
		fences, err := issuesFences(ctx, l, r.key(l.Name(), "probe"))
		if err != nil {
			return err
		}
		scenarios = append(scenarios, scenario{l, fences, false})
		if fences {
			scenarios = append(scenarios, scenario{l, true, true})
		}
	}
	r.progress(fmt.Sprintf("safety: %d scenarios at once", len(scenarios)))
	results := make([]*SafetyRes, len(scenarios))
	errs := make([]error, len(scenarios))
	var wg sync.WaitGroup
	for i, sc := range scenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = r.safetyRun(ctx, sc.l, sc.useFence, sc.fenced)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	rep.Safety = append(rep.Safety, results...)
	return nil
}

func issuesFences(ctx context.Context, l Locker, key string) (bool, error) {
	lease, err := l.TryAcquire(ctx, key, time.Second)
	if err != nil {
		return false, fmt.Errorf("%s: probing for fencing tokens: %w", l.Name(), err)
	}
	f := lease.Fence()
	_ = lease.Release(ctx)
	return f != 0, nil
}

// resource is the protected resource: one value written by lock holders.
// It remembers the highest order (fence, or grant sequence for locks that
// issue none) among accepted writes; a write with a lower order is stale,
// because a later holder has already written. When fenced, the write is
// only accepted if its fence is higher, checked either by the library's
// own checker or by this model.
type resource struct {
	mu       sync.Mutex
	name     string
	fenced   bool
	checker  FenceChecker
	maxOrder int64
}

func (res *resource) write(ctx context.Context, order int64, lease Lease) (stale, accepted bool, err error) {
	res.mu.Lock()
	defer res.mu.Unlock()
	stale = order < res.maxOrder
	switch {
	case res.checker != nil:
		accepted, err = res.checker.CheckedWrite(ctx, res.name, lease)
		if err != nil {
			return stale, false, err
		}
	case res.fenced:
		accepted = order > res.maxOrder
	default:
		accepted = true
	}
	if accepted && order > res.maxOrder {
		res.maxOrder = order
	}
	return stale, accepted, nil
}

type section struct{ start, end time.Time }

func (r *runner) safetyRun(ctx context.Context, l Locker, useFence, fenced bool) (*SafetyRes, error) {
	cfg := r.cfg
	tag := "unfenced"
	if fenced {
		tag = "fenced"
	}
	key := r.key(l.Name(), "safety", tag)
	res := &resource{name: r.key(l.Name(), "resource", tag), fenced: fenced}
	out := &SafetyRes{Impl: l.Name(), Fenced: fenced, Checker: "none", TTL: int64(cfg.SafetyTTL), Pause: int64(cfg.SafetyPause), Errors: map[string]int64{}, Order: "grant sequence seen by lockbench"}
	if useFence {
		out.Order = "fencing token"
	}
	if fenced {
		out.Checker = "lockbench in-process resource model (accepts a write only if its fence is higher than any accepted)"
		if fc, ok := l.(FenceChecker); ok {
			res.checker = fc
			out.Checker = fc.CheckerName()
		}
	}
	var seq atomic.Int64
	var mu sync.Mutex
	var sections []section
	phase, cancel := context.WithTimeout(ctx, cfg.SafetyDuration)
	defer cancel()
	var wg sync.WaitGroup
	var firstErr error
	var writeErrs int64
	for i := 0; i < cfg.SafetyClients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i)+7, uint64(time.Now().UnixNano())))
			for phase.Err() == nil {
				actx, acancel := context.WithTimeout(phase, 4*cfg.SafetyPause)
				lease, err := l.Acquire(actx, key, cfg.SafetyTTL)
				acancel()
				granted := time.Now()
				if err != nil {
					if phase.Err() == nil {
						mu.Lock()
						out.Errors["acquire_"+Cause(err)]++
						mu.Unlock()
					}
					continue
				}
				order := seq.Add(1)
				if useFence {
					order = lease.Fence()
				}
				paused := rng.Float64() < pauseChance
				if paused {
					time.Sleep(cfg.SafetyPause)
				} else {
					time.Sleep(time.Millisecond)
				}
				// The write lands even after the phase ends: a paused
				// holder does not know time has passed.
				wctx := context.WithoutCancel(phase)
				stale, accepted, werr := res.write(wctx, order, lease)
				end := time.Now()
				rerr := lease.Release(wctx)
				mu.Lock()
				out.Grants++
				out.Writes++
				if paused {
					out.Paused++
				}
				switch {
				case werr != nil:
					writeErrs++
					out.Errors["write_"+Cause(werr)]++
					if firstErr == nil && res.checker != nil {
						firstErr = fmt.Errorf("%s: fence check: %w", out.Checker, werr)
					}
				case stale && accepted:
					out.StaleAccepted++
				case stale:
					out.StaleRejected++
				}
				if rerr != nil {
					out.Errors["release_"+Cause(rerr)]++
				}
				sections = append(sections, section{granted, end})
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if firstErr != nil && writeErrs == out.Writes {
		return nil, firstErr // the checker never worked: no figures to report
	}
	out.Overlap = overlaps(sections)
	if len(out.Errors) == 0 {
		out.Errors = nil
	}
	return out, nil
}

// overlaps counts pairs of critical sections that overlapped in time.
func overlaps(s []section) int64 {
	var n int64
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[i].start.Before(s[j].end) && s[j].start.Before(s[i].end) {
				n++
			}
		}
	}
	return n
}
