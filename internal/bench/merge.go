package bench

import (
	"errors"
	"fmt"
)

// Merge combines reports from runs that ran at the same time (for example
// from several machines against one server). Distributions are merged from
// their HDR snapshots, counts and rates are summed, per-client figures are
// concatenated (so fairness is over all clients), and the advice is
// recomputed. Sections are matched by implementation and, for contention,
// by loop, client count and key count; a section present in only some
// reports is kept as it is. The first report's configuration is kept.
func Merge(reps ...*Report) (*Report, error) {
	if len(reps) == 0 {
		return nil, errors.New("merge: no reports")
	}
	out := &Report{Schema: "lockbench", Version: SchemaVersion, Started: reps[0].Started, Config: reps[0].Config}
	implSeen := map[string]bool{}
	for _, r := range reps {
		if r.Version != SchemaVersion {
			return nil, fmt.Errorf("merge: report version %d, want %d", r.Version, SchemaVersion)
		}
		if r.Started.Before(out.Started) {
			out.Started = r.Started
		}
		out.Sources = append(out.Sources, r.Sources...)
		for _, i := range r.Impls {
			if !implSeen[i.Name] {
				implSeen[i.Name] = true
				out.Impls = append(out.Impls, i)
			}
		}
		out.Skipped = append(out.Skipped, r.Skipped...)
	}
	var err error
	merge := func(a, b *Op) *Op {
		if err != nil {
			return nil
		}
		var o *Op
		o, err = mergeOps(a, b)
		return o
	}
	for _, r := range reps {
		if r.Base != nil {
			if out.Base == nil {
				out.Base = &Baseline{SetClients: 0}
			}
			out.Base.Ping = merge(out.Base.Ping, r.Base.Ping)
			out.Base.Set = merge(out.Base.Set, r.Base.Set)
			out.Base.SetClients += r.Base.SetClients
			out.Base.SetOps += r.Base.SetOps
			out.Base.SetRate += r.Base.SetRate
		}
		for _, l := range r.Latency {
			m := findLatency(out, l.Impl)
			if m == nil {
				m = &LatencyRes{Impl: l.Impl, RenewTTL: l.RenewTTL}
				out.Latency = append(out.Latency, m)
			}
			total := float64(m.Acquire.count() + l.Acquire.count())
			if total > 0 {
				w, lw := float64(m.Acquire.count()), float64(l.Acquire.count())
				m.CommandsPerCycle = (m.CommandsPerCycle*w + l.CommandsPerCycle*lw) / total
				m.RoundTripsPerCycle = (m.RoundTripsPerCycle*w + l.RoundTripsPerCycle*lw) / total
			}
			m.Acquire = merge(m.Acquire, l.Acquire)
			m.Release = merge(m.Release, l.Release)
			m.Renew = merge(m.Renew, l.Renew)
			m.Cycle = merge(m.Cycle, l.Cycle)
			if l.RenewMargin != nil {
				m.RenewMargin = merge(m.RenewMargin, l.RenewMargin)
			}
		}
		for _, c := range r.Contend {
			m := findContend(out, c)
			if m == nil {
				m = &ContendRes{Impl: c.Impl, Mode: c.Mode, RunClients: c.RunClients, Keys: c.Keys}
				out.Contend = append(out.Contend, m)
			}
			m.Clients += c.Clients
			m.Rate += c.Rate
			m.Duration = max(m.Duration, c.Duration)
			m.Grants += c.Grants
			m.GrantsPerSec += c.GrantsPerSec
			m.Wait = merge(m.Wait, c.Wait)
			m.Handoff = merge(m.Handoff, c.Handoff)
			m.Hold = merge(m.Hold, c.Hold)
			m.Release = merge(m.Release, c.Release)
			if c.RenewMargin != nil {
				m.RenewMargin = merge(m.RenewMargin, c.RenewMargin)
			}
			m.PerClient = append(m.PerClient, c.PerClient...)
			m.PerClientP99 = append(m.PerClientP99, c.PerClientP99...)
			m.Timeouts += c.Timeouts
			m.StillWaiting += c.StillWaiting
			m.Reacquired += c.Reacquired
			m.Commands += c.Commands
			m.derive()
		}
		for _, s := range r.Safety {
			m := findSafety(out, s)
			if m == nil {
				c := *s
				c.Errors = nil
				c.Grants, c.Paused, c.Writes, c.Overlap, c.StaleAccepted, c.StaleRejected = 0, 0, 0, 0, 0, 0
				m = &c
				out.Safety = append(out.Safety, m)
			}
			m.Grants += s.Grants
			m.Paused += s.Paused
			m.Writes += s.Writes
			m.Overlap += s.Overlap
			m.StaleAccepted += s.StaleAccepted
			m.StaleRejected += s.StaleRejected
			for k, v := range s.Errors {
				if m.Errors == nil {
					m.Errors = map[string]int64{}
				}
				m.Errors[k] += v
			}
		}
		if r.Pauses != nil {
			out.Pauses = merge(out.Pauses, r.Pauses)
		}
	}
	if err != nil {
		return nil, err
	}
	if out.Base != nil && out.Base.Ping != nil {
		out.Base.RTT = out.Base.Ping.P50
	}
	out.Advice = Advise(out)
	return out, nil
}

func (o *Op) count() int64 {
	if o == nil {
		return 0
	}
	return o.Count
}

func mergeOps(a, b *Op) (*Op, error) {
	if a == nil && b == nil {
		return nil, nil
	}
	ha, err := a.Hist()
	if err != nil {
		return nil, err
	}
	hb, err := b.Hist()
	if err != nil {
		return nil, err
	}
	ha.Merge(hb)
	return ha.Op(), nil
}

func findLatency(r *Report, impl string) *LatencyRes {
	for _, l := range r.Latency {
		if l.Impl == impl {
			return l
		}
	}
	return nil
}

// findContend matches a contention section by implementation, loop, keys
// and the client count of one run.
func findContend(r *Report, c *ContendRes) *ContendRes {
	for _, m := range r.Contend {
		if m.Impl == c.Impl && m.Mode == c.Mode && m.Keys == c.Keys && m.RunClients == c.RunClients {
			return m
		}
	}
	return nil
}

func findSafety(r *Report, s *SafetyRes) *SafetyRes {
	for _, m := range r.Safety {
		if m.Impl == s.Impl && m.Fenced == s.Fenced {
			return m
		}
	}
	return nil
}
