package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText writes the report as tables for a terminal.
func (rep *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	cfg := rep.Config
	b.WriteString("lockbench report\n")
	for _, s := range rep.Sources {
		fmt.Fprintf(&b, "target: %s\n", s.Target)
		if s.Note != "" {
			fmt.Fprintf(&b, "note:   %s\n", s.Note)
		}
		fmt.Fprintf(&b, "host:   %s, %s, %d CPUs, run took %s\n", s.Host, s.Go, s.CPUs, fmtDur(time.Duration(s.Duration).Round(time.Millisecond)))
	}
	if len(rep.Sources) > 1 {
		fmt.Fprintf(&b, "merged from %d runs: distributions merged, rates summed (the runs are taken to have run at the same time)\n", len(rep.Sources))
	}
	for _, i := range rep.Impls {
		fmt.Fprintf(&b, "  %-12s %s\n", i.Name, i.About)
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(&b, "  skipped %s: %s\n", s.Impl, s.Reason)
	}
	rtt := int64(0)
	if rep.Base != nil {
		rtt = rep.Base.RTT
		fmt.Fprintf(&b, "\nBaseline, measured beside the locks (1 client); RTT = PING p50 = %s\n", fmtDur(time.Duration(rtt)))
		tw := table(&b)
		fmt.Fprintln(tw, "  op\tcount\terrors\tp50\tp90\tp99\tp99.9\tmax\t")
		opRow(tw, "  PING", rep.Base.Ping, 0)
		opRow(tw, "  SET", rep.Base.Set, 0)
		_ = tw.Flush()
		if rep.Base.SetOps > 0 {
			fmt.Fprintf(&b, "  SET throughput, %d clients: %.0f ops/s (compare: redis-benchmark -t set -c %d)\n", rep.Base.SetClients, rep.Base.SetRate, rep.Base.SetClients)
		}
	}
	if len(rep.Latency) > 0 {
		fmt.Fprintf(&b, "\nLatency, uncontended (1 client, TTL %s); xRTT = p50 / RTT\n", fmtDur(cfg.TTL))
		tw := table(&b)
		fmt.Fprintln(tw, "  impl\top\tcount\terrors\tp50\tp90\tp99\tp99.9\tmax\txRTT\t")
		for _, l := range rep.Latency {
			opRow(tw, "  "+l.Impl+"\tacquire", l.Acquire, rtt)
			opRow(tw, "  \trenew", l.Renew, rtt)
			opRow(tw, "  \trelease", l.Release, rtt)
			opRow(tw, "  \tacq+rel", l.Cycle, rtt)
		}
		_ = tw.Flush()
		b.WriteString("  on the wire per acquire+renew+release (commands/round trips):")
		for _, l := range rep.Latency {
			fmt.Fprintf(&b, " %s %.1f/%.1f", l.Impl, l.CommandsPerCycle, l.RoundTripsPerCycle)
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "\nRenew margin: a lease with TTL %s renewed every %s; time left on it at each confirmed renew (low is bad)\n",
			fmtDur(cfg.WatchdogTTL), fmtDur(cfg.WatchdogTTL/3))
		tw = table(&b)
		fmt.Fprintln(tw, "  impl\trenews\terrors\tmin\tp1\tp50\tmax\t")
		for _, l := range rep.Latency {
			if l.RenewMargin == nil {
				fmt.Fprintf(tw, "  %s\t-\t\t(no explicit renew)\t\t\t\t\n", l.Impl)
				continue
			}
			h, err := l.RenewMargin.Hist()
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", l.Impl, l.RenewMargin.Count, errText(l.RenewMargin.Errors),
				fmtDur(h.Min()), fmtDur(h.Quantile(0.01)), fmtDur(h.Quantile(0.5)), fmtDur(h.Max()))
		}
		_ = tw.Flush()
	}
	if len(rep.Contend) > 0 {
		fmt.Fprintf(&b, "\nContention: %d key(s), hold %s (%s), TTL %s, acquire timeout %s; wait = request to grant (open loop: intended start to grant)\n",
			cfg.Keys, fmtDur(cfg.Hold), cfg.HoldDist, fmtDur(cfg.TTL), fmtDur(cfg.AcquireTimeout))
		if n := cfg.slices(); n > 1 {
			fmt.Fprintf(&b, "  closed loops ran in %d slices of %s, interleaved across implementations\n", n, fmtDur(cfg.Duration/time.Duration(n)))
		}
		tw := table(&b)
		fmt.Fprintln(tw, "  impl\tloop\tclients\tgrants/s\twait p50\twait p99\twait max\thandoff p50\tfairness\tworst p99\tstarved\ttimeouts\treacq\tcmds/grant\t")
		for _, c := range rep.Contend {
			loop := c.Mode
			if c.Mode == "open" {
				loop = fmt.Sprintf("open %.0f/s", c.Rate)
			}
			reacq := "-"
			if c.Grants > 0 && c.Clients > 1 {
				reacq = fmt.Sprintf("%.0f%%", 100*float64(c.Reacquired)/float64(c.Grants))
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%.0f\t%s\t%s\t%s\t%s\t%.2f\t%s\t%d\t%d\t%s\t%.1f\t\n",
				c.Impl, loop, c.Clients, c.GrantsPerSec, fmtDur(time.Duration(c.Wait.P50)), fmtDur(time.Duration(c.Wait.P99)),
				fmtDur(time.Duration(c.Wait.Max)), p50OrDash(c.Handoff), c.Fairness,
				fmtDur(time.Duration(c.WorstClientP99)), c.Starved, c.Timeouts, reacq, c.CommandsPerGrant)
		}
		_ = tw.Flush()
		for _, c := range rep.Contend {
			if m := c.RenewMargin; m != nil {
				fmt.Fprintf(&b, "  %s %s %d clients: %d renews during holds, time left on the lease: min %s, p50 %s; errors %s\n",
					c.Impl, c.Mode, c.Clients, m.Count, fmtDur(time.Duration(m.Min)), fmtDur(time.Duration(m.P50)), errText(m.Errors))
			}
		}
		b.WriteString("  fairness: Jain's index over clients' grants (1 = equal shares); worst p99: the worst client's p99 wait; starved: clients\n" +
			"  with no grant; reacq: grants back to the releaser while others waited; requests still waiting at the end count with their wait so far\n")
	}
	if len(rep.Safety) > 0 {
		fmt.Fprintf(&b, "\nSafety: %d holders on one key, TTL %s; %.0f%% of holders pause %s inside the critical section, then write\n",
			cfg.SafetyClients, fmtDur(cfg.SafetyTTL), 100*pauseChance, fmtDur(cfg.SafetyPause))
		tw := table(&b)
		fmt.Fprintln(tw, "  impl\tfence at resource\tsections\tpaused\toverlapping pairs\tstale writes accepted\tstale rejected\terrors\t")
		for _, s := range rep.Safety {
			fence := "no"
			if s.Fenced {
				fence = "yes"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", s.Impl, fence, s.Grants, s.Paused, s.Overlap, s.StaleAccepted, s.StaleRejected, errText(s.Errors))
		}
		_ = tw.Flush()
		for _, s := range rep.Safety {
			if s.Fenced {
				fmt.Fprintf(&b, "  %s fenced: checked by %s\n", s.Impl, s.Checker)
			}
		}
		b.WriteString("  stale write: a holder writes after a later holder already wrote; only a fence checked at the resource rejects it\n")
	}
	if rep.Pauses != nil && rep.Pauses.Count > 0 {
		fmt.Fprintf(&b, "\nHost stalls during the run (lateness of a 1ms sleep): p50 %s, p99 %s, p99.9 %s, max %s\n",
			fmtDur(time.Duration(rep.Pauses.P50)), fmtDur(time.Duration(rep.Pauses.P99)), fmtDur(time.Duration(rep.Pauses.P999)), fmtDur(time.Duration(rep.Pauses.Max)))
	}
	if a := rep.Advice; a != nil {
		fmt.Fprintf(&b, "\nTTL advice for %s: TTL %s, renew every %s (without renewing: TTL %s)\n", a.For, fmtDur(time.Duration(a.TTL)), fmtDur(time.Duration(a.RenewEvery)), fmtDur(time.Duration(a.TTLNoRenew)))
		for _, line := range a.Reasoning {
			fmt.Fprintf(&b, "  - %s\n", line)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func table(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

func opRow(w io.Writer, label string, o *Op, rtt int64) {
	if o == nil {
		return
	}
	x := ""
	if rtt > 0 && o.Count > 0 {
		x = fmt.Sprintf("%.2f", float64(o.P50)/float64(rtt))
	}
	d := func(v int64) string { return fmtDur(time.Duration(v)) }
	cols := []string{label, fmt.Sprint(o.Count), errText(o.Errors), "-", "-", "-", "-", "-"}
	if o.Count > 0 {
		cols = append(cols[:3], d(o.P50), d(o.P90), d(o.P99), d(o.P999), d(o.Max))
	}
	if rtt > 0 {
		cols = append(cols, x)
	}
	fmt.Fprintln(w, strings.Join(cols, "\t")+"\t")
}

func errText(m map[string]int64) string {
	if len(m) == 0 {
		return "0"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s:%d", k, m[k])
	}
	return strings.Join(parts, ",")
}

func p50OrDash(o *Op) string {
	if o == nil || o.Count == 0 {
		return "-"
	}
	return fmtDur(time.Duration(o.P50))
}
