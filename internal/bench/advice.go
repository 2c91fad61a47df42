package bench

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Advice is the recommended TTL and renew interval, with the inputs and the
// arithmetic that led to it.
type Advice struct {
	// For is the lock implementation the advice is for: the one the user
	// is choosing (Config.AdviseFor), never the worst of those compared.
	For         string  `json:"for"`
	RenewTail   int64   `json:"renew_tail_ns"` // p99.9 of renew latency
	RenewFrom   string  `json:"renew_from"`
	AcquireTail int64   `json:"acquire_tail_ns"` // p99.9 of acquire latency
	Hold        int64   `json:"hold_ns"`         // critical-section time
	HoldFrom    string  `json:"hold_from"`
	Pause       int64   `json:"pause_ns"` // longest pause to survive
	PauseFrom   string  `json:"pause_from"`
	Drift       float64 `json:"drift"`
	DriftFixed  int64   `json:"drift_fixed_ns"`
	// MinWatchdog is the least TTL at which a watchdog renewing every
	// TTL/3 keeps the lease even when one renew is lost; MinNoRenew the
	// least TTL at which the critical section fits without any renew.
	MinWatchdog int64 `json:"min_ttl_watchdog_ns"`
	MinNoRenew  int64 `json:"min_ttl_no_renew_ns"`
	// TTL and RenewEvery are the recommendation (with a watchdog);
	// TTLNoRenew is the recommendation for code that never renews.
	TTL        int64    `json:"ttl_ns"`
	RenewEvery int64    `json:"renew_every_ns"`
	TTLNoRenew int64    `json:"ttl_no_renew_ns"`
	Reasoning  []string `json:"reasoning"`
}

// headroom multiplies the minimum TTLs: a short run sees only part of the
// tail that production will.
const headroom = 2

// Advise derives a TTL recommendation from a report's measurements.
func Advise(rep *Report) *Advice {
	cfg := rep.Config
	a := &Advice{Drift: cfg.Drift, DriftFixed: int64(cfg.DriftFixed)}

	// Latency tails and hold time of the implementation being chosen:
	// another library's slow renew says nothing about this one's.
	a.For = adviseFor(rep)
	for _, l := range rep.Latency {
		if l.Impl != a.For {
			continue
		}
		if l.Renew != nil && l.Renew.Count > 0 && l.Renew.P999 > a.RenewTail {
			a.RenewTail, a.RenewFrom = l.Renew.P999, "renew p99.9 of "+l.Impl
		}
		if l.Acquire != nil && l.Acquire.P999 > a.AcquireTail {
			a.AcquireTail = l.Acquire.P999
		}
	}
	if a.RenewTail == 0 && a.AcquireTail > 0 {
		a.RenewTail, a.RenewFrom = a.AcquireTail, "acquire p99.9 of "+a.For+" (renew not measured)"
	}
	if a.RenewTail == 0 {
		a.RenewFrom = "not measured: include the latency workload"
	}

	a.Hold, a.HoldFrom = int64(cfg.Hold), "--hold"
	if !cfg.HoldGiven {
		var h int64
		for _, c := range rep.Contend {
			if c.Impl == a.For && c.Hold != nil && c.Hold.P999 > h {
				h = c.Hold.P999
			}
		}
		if h > 0 {
			a.Hold, a.HoldFrom = h, "measured hold p99.9 (pass --hold with your critical section's time)"
		} else {
			a.HoldFrom = "--hold default (pass --hold with your critical section's time)"
		}
	}

	a.Pause, a.PauseFrom = int64(cfg.AppPause), "--pause"
	if cfg.AppPause == 0 && rep.Pauses != nil {
		a.Pause, a.PauseFrom = rep.Pauses.Max, "longest stall observed on this host during the run (pass --pause with your GC/stop pauses)"
	}

	rho := cfg.Drift
	fixed := float64(cfg.DriftFixed)
	// Watchdog: a renew due at TTL/3 may be lost; the next one, at 2TTL/3,
	// must still be confirmed before the client's safe deadline
	// TTL(1-rho) - fixed, after its latency and a pause:
	//   2TTL/3 + renew + pause <= TTL(1-rho) - fixed
	//   TTL >= (renew + pause + fixed) / (1/3 - rho)
	a.MinWatchdog = int64((float64(a.RenewTail) + float64(a.Pause) + fixed) / (1.0/3 - rho))
	// No renew: acquire, the whole critical section and a pause must fit:
	//   acquire + hold + pause <= TTL(1-rho) - fixed
	a.MinNoRenew = int64((float64(a.AcquireTail) + float64(a.Hold) + float64(a.Pause) + fixed) / (1 - rho))
	a.TTL = niceCeil(headroom * a.MinWatchdog)
	a.RenewEvery = a.TTL / 3
	a.TTLNoRenew = niceCeil(headroom * a.MinNoRenew)

	d := func(ns int64) string { return fmtDur(time.Duration(ns)) }
	a.Reasoning = []string{
		fmt.Sprintf("for %s (%s)", a.For, forReason(rep, a.For)),
		fmt.Sprintf("renew latency tail %s (%s)", d(a.RenewTail), a.RenewFrom),
		fmt.Sprintf("critical section %s (%s)", d(a.Hold), a.HoldFrom),
		fmt.Sprintf("pause allowance %s (%s)", d(a.Pause), a.PauseFrom),
		fmt.Sprintf("clock drift allowance %.1f%% of the TTL + %s", 100*rho, d(a.DriftFixed)),
		fmt.Sprintf("with a watchdog renewing every TTL/3, the renew at 2TTL/3 (one renew may be lost) must land before TTL(1-drift)-%s: TTL >= (%s + %s + %s) / (1/3 - %.3f) = %s",
			d(a.DriftFixed), d(a.RenewTail), d(a.Pause), d(a.DriftFixed), rho, d(a.MinWatchdog)),
		fmt.Sprintf("recommended: TTL %s (x%d headroom, rounded up), renew every %s", d(a.TTL), headroom, d(a.RenewEvery)),
		fmt.Sprintf("without renewing, acquire + critical section + pause must fit: TTL >= (%s + %s + %s + %s) / (1 - %.3f) = %s; use at least %s",
			d(a.AcquireTail), d(a.Hold), d(a.Pause), d(a.DriftFixed), rho, d(a.MinNoRenew), d(a.TTLNoRenew)),
		"a longer TTL only costs time when a holder crashes (others wait up to the TTL); no TTL stops a paused holder's late write: check the fence where the write lands",
	}
	return a
}

// DefaultAdviseFor is the lock the advice is for unless --impl names another.
const DefaultAdviseFor = "safelock"

// adviseFor is Config.AdviseFor, or safelock, or (when neither was
// measured) the first implementation with latency results.
func adviseFor(rep *Report) string {
	want := rep.Config.AdviseFor
	if want == "" {
		want = DefaultAdviseFor
	}
	for _, l := range rep.Latency {
		if l.Impl == want {
			return want
		}
	}
	for _, c := range rep.Contend {
		if c.Impl == want {
			return want
		}
	}
	if len(rep.Latency) > 0 {
		return rep.Latency[0].Impl
	}
	return want
}

func forReason(rep *Report, impl string) string {
	switch {
	case rep.Config.AdviseFor == impl:
		return "the first --impl"
	case rep.Config.AdviseFor == "" && impl == DefaultAdviseFor:
		return "the default; name another first in --impl to advise for it"
	default:
		return "the first implementation measured"
	}
}

// niceCeil rounds ns up to 1, 2 or 5 times a power of ten, at least 1 ms.
func niceCeil(ns int64) int64 {
	if ns < int64(time.Millisecond) {
		return int64(time.Millisecond)
	}
	for p := int64(time.Millisecond); ; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if m*p >= ns {
				return m * p
			}
		}
	}
}

// fmtDur prints a duration with about three significant digits.
func fmtDur(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	neg := ""
	if d < 0 {
		neg, d = "-", -d
	}
	v, unit := float64(d), "ns"
	switch {
	case d >= time.Second:
		v, unit = d.Seconds(), "s"
	case d >= time.Millisecond:
		v, unit = v/1e6, "ms"
	case d >= time.Microsecond:
		v, unit = v/1e3, "µs"
	}
	var s string
	switch {
	case v < 10:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	case v < 100:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	default:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return neg + s + unit
}
