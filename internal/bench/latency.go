package bench

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"
)

// latency measures, for each implementation, uncontended acquire, renew and
// release with one client, interleaved op by op across implementations and
// with PING and SET, so that every implementation and the baseline see the
// same conditions (a machine whose speed drifts during the run shifts them
// all alike); then a watchdog's renew margin; and once, plain SET
// throughput with SetClients clients.
func (r *runner) latency(ctx context.Context, rep *Report, lockers []Locker) error {
	c := r.t.Client()
	ping, set := NewHist(), NewHist()
	r.progress("latency: warm-up and SET throughput")
	if err := r.setThroughput(ctx, rep); err != nil {
		return err
	}
	type impl struct {
		l                   Locker
		key                 string
		acq, ren, rel, cyc  *Hist
		commands, roundTrip int64
	}
	impls := make([]*impl, len(lockers))
	for i, l := range lockers {
		impls[i] = &impl{l: l, key: r.key(l.Name(), "lat"), acq: NewHist(), ren: NewHist(), rel: NewHist(), cyc: NewHist()}
	}
	r.progress("latency: interleaved")
	// Each round runs the implementations in a new random order. A fixed
	// order, even rotated, gives each implementation the same predecessor
	// in most rounds, and a client's background work after its own op
	// (rueidis's pipeline goroutines) slowed whichever op came next by a
	// quarter.
	order := make([]*impl, len(impls))
	copy(order, impls)
	rng := rand.New(rand.NewPCG(1, uint64(len(impls))))
	for i := 0; i < r.cfg.Ops; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		if err := c.Ping(ctx).Err(); err != nil {
			ping.Fail(Cause(err))
		} else {
			ping.Record(time.Since(t0))
		}
		t0 = time.Now()
		if err := c.Set(ctx, r.key("set", i%64), "v", time.Minute).Err(); err != nil {
			set.Fail(Cause(err))
		} else {
			set.Record(time.Since(t0))
		}
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, m := range order {
			before, beforeTrips := r.t.Commands.Load(), r.t.RoundTrips.Load()
			r.cycle(ctx, m.l, m.key, m.acq, m.ren, m.rel, m.cyc)
			m.commands += r.t.Commands.Load() - before
			m.roundTrip += r.t.RoundTrips.Load() - beforeTrips
		}
	}
	for _, m := range impls {
		res := &LatencyRes{
			Impl: m.l.Name(), Acquire: m.acq.Op(), Release: m.rel.Op(), Renew: m.ren.Op(), Cycle: m.cyc.Op(),
			CommandsPerCycle:   float64(m.commands) / float64(r.cfg.Ops),
			RoundTripsPerCycle: float64(m.roundTrip) / float64(r.cfg.Ops),
		}
		r.progress("latency: renew margin of " + m.l.Name())
		if h, ok := r.renewMargin(ctx, m.l); ok {
			res.RenewMargin = h.Op()
			res.RenewTTL = int64(r.cfg.WatchdogTTL)
		}
		rep.Latency = append(rep.Latency, res)
	}
	rep.Base.Ping, rep.Base.Set = ping.Op(), set.Op()
	rep.Base.RTT = rep.Base.Ping.P50
	return nil
}

// cycle takes key with l, renews and releases it, recording each step and
// the acquire+release cycle.
func (r *runner) cycle(ctx context.Context, l Locker, key string, acq, ren, rel, cyc *Hist) {
	t0 := time.Now()
	lease, err := l.TryAcquire(ctx, key, r.cfg.TTL)
	t1 := time.Now()
	if err != nil {
		acq.Fail(Cause(err))
		return
	}
	acq.Record(t1.Sub(t0))
	if err := lease.Renew(ctx, r.cfg.TTL); err != nil {
		ren.Fail(Cause(err))
	} else {
		ren.Record(time.Since(t1))
	}
	t2 := time.Now()
	if err := lease.Release(ctx); err != nil {
		rel.Fail(Cause(err))
		return
	}
	now := time.Now()
	rel.Record(now.Sub(t2))
	cyc.Record(now.Sub(t2) + t1.Sub(t0))
}

// renewMargin holds one lease with WatchdogTTL and renews it every TTL/3,
// as a watchdog would, recording how much of the lease was left when each
// renew was confirmed: the lease's deadline is counted from the start of
// the previous successful acquire or renew, as a careful client must.
func (r *runner) renewMargin(ctx context.Context, l Locker) (*Hist, bool) {
	ttl := r.cfg.WatchdogTTL
	h := NewHist()
	start := time.Now()
	lease, err := l.TryAcquire(ctx, r.key(l.Name(), "watchdog"), ttl)
	if err != nil {
		h.Fail("acquire_" + Cause(err))
		return h, true
	}
	defer func() { _ = lease.Release(ctx) }()
	deadline := start.Add(ttl)
	tick := time.NewTicker(ttl / 3)
	defer tick.Stop()
	end := time.After(r.cfg.WatchdogDuration)
	for {
		select {
		case <-ctx.Done():
			return h, true
		case <-end:
			return h, true
		case <-tick.C:
		}
		t0 := time.Now()
		err := lease.Renew(ctx, ttl)
		if errors.Is(err, ErrUnsupported) {
			return nil, false
		}
		now := time.Now()
		if err != nil || now.After(deadline) {
			h.Fail(Cause(errors.Join(err, ErrLeaseLost)))
			return h, true
		}
		h.Record(deadline.Sub(now))
		deadline = t0.Add(ttl)
	}
}

// setThroughput runs plain SET in a closed loop with SetClients clients,
// the yardstick for "lockbench is not the bottleneck" (compare with
// redis-benchmark -t set -c SetClients). It also warms the pool.
func (r *runner) setThroughput(ctx context.Context, rep *Report) error {
	c := r.t.Client()
	n := r.cfg.SetClients
	rep.Base = &Baseline{SetClients: n}
	// Warm-up: open the connections before timing.
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.Ping(ctx).Err()
		}()
	}
	wg.Wait()
	counts := make([]int64, n)
	errs := make([]error, n)
	stop := time.Now().Add(r.cfg.SetDuration)
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			key := r.key("setrate", i)
			for time.Now().Before(stop) {
				if err := c.Set(ctx, key, "xxx", 0).Err(); err != nil {
					errs[i] = err
					return
				}
				counts[i]++
			}
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, k := range counts {
		rep.Base.SetOps += k
	}
	rep.Base.SetRate = float64(rep.Base.SetOps) / elapsed.Seconds()
	return nil
}
