package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/locklint/locklint/internal/threadsleep"
)

// keyState is what workers share about one contended key, to measure
// handoffs: when the key was last released, by whom, and whether anyone
// was waiting then.
type keyState struct {
	waiting     atomic.Int32
	lastRelease atomic.Int64 // unix ns of the release call's start; 0 once consumed
	lastHolder  atomic.Int32
	contended   atomic.Bool // someone was waiting at the last release
}

// clientStats is one worker's own record; only that worker writes it.
type clientStats struct {
	wait, handoff, hold, release *Hist
	renewMargin                  *Hist
	grants, timeouts, reacq      int64
	stillWaiting                 int64
}

// contention runs the closed-loop sweep for every implementation, then
// the open loop at the largest client count.
func (r *runner) contention(ctx context.Context, rep *Report, lockers []Locker) error {
	closedRate := map[string]float64{}
	for _, l := range lockers {
		for _, n := range r.cfg.Sweep {
			r.progress(fmt.Sprintf("contention: %s, %d clients, closed loop", l.Name(), n))
			res, err := r.contend(ctx, l, n, 0)
			if err != nil {
				return err
			}
			rep.Contend = append(rep.Contend, res)
			if n == r.cfg.Clients {
				closedRate[l.Name()] = res.GrantsPerSec
			}
		}
	}
	rate := r.cfg.Rate
	if rate == 0 {
		// Half the slowest implementation's capacity: every implementation
		// gets the same arrivals, and all of them can keep up on average.
		rate = math.Inf(1)
		for _, v := range closedRate {
			rate = min(rate, v/2)
		}
		if math.IsInf(rate, 1) || rate < 1 {
			rate = 1
		}
	}
	for _, l := range lockers {
		r.progress(fmt.Sprintf("contention: %s, %d clients, open loop at %.0f/s", l.Name(), r.cfg.Clients, rate))
		res, err := r.contend(ctx, l, r.cfg.Clients, rate)
		if err != nil {
			return err
		}
		rep.Contend = append(rep.Contend, res)
	}
	return nil
}

// contend runs n clients on Keys keys for Duration. With rate 0 it is a
// closed loop (each client asks again as soon as it has released). With a
// rate it is an open loop: client i's k-th request is due at a fixed
// intended time, and its wait is measured from then, not from when the
// client got round to it, so a slow lock cannot hide its backlog
// (no coordinated omission).
func (r *runner) contend(ctx context.Context, l Locker, n int, rate float64) (*ContendRes, error) {
	mode := "closed"
	if rate > 0 {
		mode = "open"
	}
	keys := make([]string, r.cfg.Keys)
	states := make([]*keyState, r.cfg.Keys)
	for i := range keys {
		keys[i] = r.key(l.Name(), "cont", mode, n, i)
		states[i] = &keyState{}
		states[i].lastHolder.Store(-1)
	}
	stats := make([]*clientStats, n)
	for i := range stats {
		stats[i] = &clientStats{wait: NewHist(), handoff: NewHist(), hold: NewHist(), release: NewHist(), renewMargin: NewHist()}
	}
	phase, cancel := context.WithTimeout(ctx, r.cfg.Duration)
	defer cancel()
	before := r.t.Commands.Load()
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r.contendClient(phase, l, i, n, rate, start, keys, states, stats[i])
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &ContendRes{Impl: l.Name(), Mode: mode, Clients: n, RunClients: n, Keys: r.cfg.Keys, Rate: rate, Duration: int64(elapsed)}
	wait, handoff, hold, rel, margin := NewHist(), NewHist(), NewHist(), NewHist(), NewHist()
	for _, s := range stats {
		margin.Merge(s.renewMargin)
		wait.Merge(s.wait)
		handoff.Merge(s.handoff)
		hold.Merge(s.hold)
		rel.Merge(s.release)
		res.Grants += s.grants
		res.Timeouts += s.timeouts
		res.Reacquired += s.reacq
		res.StillWaiting += s.stillWaiting
		res.PerClient = append(res.PerClient, s.grants)
		p99 := int64(s.wait.Quantile(0.99))
		res.PerClientP99 = append(res.PerClientP99, p99)
		if s.grants == 0 {
			res.Starved++
		}
	}
	res.Wait, res.Handoff, res.Hold, res.Release = wait.Op(), handoff.Op(), hold.Op(), rel.Op()
	if margin.Count()+margin.Errors() > 0 {
		res.RenewMargin = margin.Op()
	}
	res.GrantsPerSec = float64(res.Grants) / elapsed.Seconds()
	res.Commands = r.t.Commands.Load() - before
	res.derive()
	return res, nil
}

// derive computes the figures that follow from the per-client data, so
// that a merged report recomputes them the same way.
func (res *ContendRes) derive() {
	res.Fairness = Jain(res.PerClient)
	res.WorstClientP99 = 0
	res.Starved = 0
	for i, g := range res.PerClient {
		if g == 0 {
			res.Starved++
		}
		if i < len(res.PerClientP99) {
			res.WorstClientP99 = max(res.WorstClientP99, res.PerClientP99[i])
		}
	}
	if res.Grants > 0 {
		res.CommandsPerGrant = float64(res.Commands) / float64(res.Grants)
	}
}

// Jain returns Jain's fairness index (sum x)^2 / (n * sum x^2): 1 when
// every client got the same share, 1/n when one client got everything.
// It is 0 for no clients or no grants at all.
func Jain(x []int64) float64 {
	var sum, sq float64
	for _, v := range x {
		f := float64(v)
		sum += f
		sq += f * f
	}
	if len(x) == 0 || sq == 0 {
		return 0
	}
	return sum * sum / (float64(len(x)) * sq)
}

func (r *runner) contendClient(ctx context.Context, l Locker, i, n int, rate float64, start time.Time,
	keys []string, states []*keyState, s *clientStats) {
	rng := rand.New(rand.NewPCG(uint64(i)+1, uint64(start.UnixNano())))
	var interval time.Duration
	next := start
	if rate > 0 {
		interval = time.Duration(float64(n) / rate * float64(time.Second))
		next = start.Add(interval * time.Duration(i) / time.Duration(n)) // spread the clients
	}
	for k := 0; ctx.Err() == nil; k++ {
		begin := time.Now()
		if rate > 0 {
			if d := time.Until(next); d > 0 {
				if Sleep(ctx, d) != nil {
					return
				}
			}
			begin = next // measure from the intended start
			next = next.Add(interval)
		}
		ki := rng.IntN(len(keys))
		ks := states[ki]
		ks.waiting.Add(1)
		actx, cancel := context.WithTimeout(ctx, r.cfg.AcquireTimeout)
		lease, err := l.Acquire(actx, keys[ki], r.cfg.TTL)
		cancel()
		granted := time.Now()
		ks.waiting.Add(-1)
		if err != nil {
			switch {
			case ctx.Err() != nil:
				// The phase ended while this client waited. Count the wait
				// so far: dropping it would hide exactly the clients a
				// lock starves.
				s.wait.Record(granted.Sub(begin))
				s.stillWaiting++
				return
			case errors.Is(err, context.DeadlineExceeded):
				s.timeouts++
				s.wait.Fail("timeout")
			default:
				s.wait.Fail(Cause(err))
			}
			continue
		}
		s.grants++
		s.wait.Record(granted.Sub(begin))
		// Handoff and re-acquire only mean something when someone was
		// waiting as the key was released.
		if lr := ks.lastRelease.Swap(0); lr != 0 && ks.contended.Load() {
			s.handoff.Record(granted.Sub(time.Unix(0, lr)))
			if ks.lastHolder.Load() == int32(i) {
				s.reacq++
			}
		}
		r.hold(ctx, lease, granted, r.holdTime(rng), s)
		rs := time.Now()
		s.hold.Record(rs.Sub(granted))
		ks.lastHolder.Store(int32(i))
		ks.contended.Store(ks.waiting.Load() > 0)
		ks.lastRelease.Store(rs.UnixNano())
		// Release even when the phase has ended, or the next phase would
		// find the key held.
		if err := lease.Release(context.WithoutCancel(ctx)); err != nil {
			s.release.Fail(Cause(err))
		} else {
			s.release.Record(time.Since(rs))
		}
	}
}

// hold keeps the lock for d. A hold longer than a third of the TTL is
// renewed every TTL/3, as a watchdog would, recording the time left on the
// lease at each confirmed renew (counted from the previous acquire or
// renew's start); libraries without an explicit renew renew themselves.
func (r *runner) hold(ctx context.Context, lease Lease, granted time.Time, d time.Duration, s *clientStats) {
	ttl := r.cfg.TTL
	end := granted.Add(d)
	deadline := granted.Add(ttl)
	for {
		next := deadline.Add(-2 * ttl / 3)
		if !next.Before(end) {
			break
		}
		if Sleep(ctx, time.Until(next)) != nil {
			break
		}
		t0 := time.Now()
		err := lease.Renew(ctx, ttl)
		if errors.Is(err, ErrUnsupported) {
			break
		}
		now := time.Now()
		if err != nil || now.After(deadline) {
			s.renewMargin.Fail(Cause(errors.Join(err, ErrLeaseLost)))
			break
		}
		s.renewMargin.Record(deadline.Sub(now))
		deadline = t0.Add(ttl)
	}
	threadsleep.Until(end)
}

func (r *runner) holdTime(rng *rand.Rand) time.Duration {
	h := r.cfg.Hold
	switch r.cfg.HoldDist {
	case "exp":
		return min(time.Duration(rng.ExpFloat64()*float64(h)), 10*h)
	case "uniform":
		return time.Duration(rng.Float64() * 2 * float64(h))
	}
	return h
}
