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

// A closed-loop phase of Duration runs in Duration/sliceLen slices, at
// most maxSlices, and in one piece when that makes fewer than three:
// slices are interleaved across implementations (see contention).
// sliceLen is a variable for tests.
var sliceLen = time.Second

const maxSlices = 6

// slices is the number of slices a closed-loop phase runs in.
func (c Config) slices() int {
	n := min(maxSlices, int(c.Duration/sliceLen))
	if n < 3 {
		return 1
	}
	return n
}

// contention runs the closed-loop sweep for every implementation, then
// the open loop at the largest client count.
//
// A closed-loop phase longer than two slices is run in slices, the
// implementations interleaved slice by slice in a new random order each
// round, and each implementation's slices are added up: grants/s on a
// shared machine drifts by several percent within a minute, and phases
// run one implementation after another compared the machine's moments as
// much as the locks. Every slice starts with no lock held and no waiter
// queued, as a phase does.
func (r *runner) contention(ctx context.Context, rep *Report, lockers []Locker) error {
	closedRate := map[string]float64{}
	slices := r.cfg.slices()
	rng := rand.New(rand.NewPCG(2, uint64(len(lockers))))
	phases := make([][]*phase, len(lockers)) // by locker, then sweep step
	for i := range phases {
		phases[i] = make([]*phase, len(r.cfg.Sweep))
	}
	order := make([]int, len(lockers))
	for si, n := range r.cfg.Sweep {
		for i, l := range lockers {
			phases[i][si] = r.newPhase(l, n, 0)
		}
		for s := 0; s < slices; s++ {
			for i := range order {
				order[i] = i
			}
			rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
			for _, i := range order {
				msg := fmt.Sprintf("contention: %s, %d clients, closed loop", lockers[i].Name(), n)
				if slices > 1 {
					msg += fmt.Sprintf(" (slice %d of %d)", s+1, slices)
				}
				r.progress(msg)
				if err := r.runPhase(ctx, phases[i][si], r.cfg.Duration/time.Duration(slices)); err != nil {
					return err
				}
			}
		}
	}
	for i, l := range lockers {
		for si, n := range r.cfg.Sweep {
			res := phases[i][si].result()
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

// phase is one implementation's measurement at one client count and rate
// (0: closed loop), added up over the slices it runs in.
type phase struct {
	l       Locker
	n       int
	rate    float64
	keys    []string
	stats   []*clientStats
	elapsed time.Duration
	cmds    int64
}

func (r *runner) newPhase(l Locker, n int, rate float64) *phase {
	mode := "closed"
	if rate > 0 {
		mode = "open"
	}
	p := &phase{l: l, n: n, rate: rate, keys: make([]string, r.cfg.Keys), stats: make([]*clientStats, n)}
	for i := range p.keys {
		p.keys[i] = r.key(l.Name(), "cont", mode, n, i)
	}
	for i := range p.stats {
		p.stats[i] = &clientStats{wait: NewHist(), handoff: NewHist(), hold: NewHist(), release: NewHist(), renewMargin: NewHist()}
	}
	return p
}

// contend runs n clients on Keys keys for Duration. With rate 0 it is a
// closed loop (each client asks again as soon as it has released). With a
// rate it is an open loop: client i's k-th request is due at a fixed
// intended time, and its wait is measured from then, not from when the
// client got round to it, so a slow lock cannot hide its backlog
// (no coordinated omission).
func (r *runner) contend(ctx context.Context, l Locker, n int, rate float64) (*ContendRes, error) {
	p := r.newPhase(l, n, rate)
	if err := r.runPhase(ctx, p, r.cfg.Duration); err != nil {
		return nil, err
	}
	return p.result(), nil
}

// runPhase runs p's clients for d, adding to its figures. Handoffs are
// measured within the slice: the key states start afresh.
func (r *runner) runPhase(ctx context.Context, p *phase, d time.Duration) error {
	states := make([]*keyState, len(p.keys))
	for i := range states {
		states[i] = &keyState{}
		states[i].lastHolder.Store(-1)
	}
	slice, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	before := r.t.Commands.Load()
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < p.n; i++ {
		wg.Go(func() { r.contendClient(slice, p.l, i, p.n, p.rate, start, p.keys, states, p.stats[i]) })
	}
	wg.Wait()
	p.elapsed += time.Since(start)
	p.cmds += r.t.Commands.Load() - before
	return ctx.Err()
}

func (p *phase) result() *ContendRes {
	mode := "closed"
	if p.rate > 0 {
		mode = "open"
	}
	res := &ContendRes{Impl: p.l.Name(), Mode: mode, Clients: p.n, RunClients: p.n, Keys: len(p.keys), Rate: p.rate, Duration: int64(p.elapsed)}
	wait, handoff, hold, rel, margin := NewHist(), NewHist(), NewHist(), NewHist(), NewHist()
	for _, s := range p.stats {
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
	}
	res.Wait, res.Handoff, res.Hold, res.Release = wait.Op(), handoff.Op(), hold.Op(), rel.Op()
	if margin.Count()+margin.Errors() > 0 {
		res.RenewMargin = margin.Op()
	}
	if p.elapsed > 0 {
		res.GrantsPerSec = float64(res.Grants) / p.elapsed.Seconds()
	}
	res.Commands = p.cmds
	res.derive()
	return res
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
