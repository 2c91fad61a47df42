package bench

import (
	"fmt"
	"io"
	"runtime"
	"strings"
)

// WriteBench writes Go benchmark lines, one per measured figure, so that
// runs can be compared with benchstat. The iteration count is the number
// of samples; ns/op is the p50 for latencies and the mean time per grant
// for contention; the other units are named for what they are.
func (rep *Report) WriteBench(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "goos: %s\ngoarch: %s\npkg: github.com/locklint/locklint/cmd/lockbench\n", runtime.GOOS, runtime.GOARCH)
	if len(rep.Sources) > 0 {
		fmt.Fprintf(&b, "target: %s\n", rep.Sources[0].Kind)
	}
	procs := runtime.GOMAXPROCS(0)
	line := func(name string, n int64, op *Op) {
		if op == nil || op.Count == 0 {
			return
		}
		fmt.Fprintf(&b, "Benchmark%s-%d\t%d\t%d ns/op\t%d p90-ns\t%d p99-ns\t%d p99.9-ns\t%d max-ns\n",
			name, procs, n, op.P50, op.P90, op.P99, op.P999, op.Max)
	}
	if rep.Base != nil {
		line("Baseline/op=ping", rep.Base.Ping.Count, rep.Base.Ping)
		line("Baseline/op=set", rep.Base.Set.Count, rep.Base.Set)
		if rep.Base.SetOps > 0 {
			fmt.Fprintf(&b, "BenchmarkSetThroughput/clients=%d-%d\t%d\t%.0f ns/op\t%.0f ops/s\n",
				rep.Base.SetClients, procs, rep.Base.SetOps, 1e9/rep.Base.SetRate, rep.Base.SetRate)
		}
	}
	for _, l := range rep.Latency {
		line("Latency/impl="+l.Impl+"/op=acquire", l.Acquire.Count, l.Acquire)
		line("Latency/impl="+l.Impl+"/op=renew", l.Renew.Count, l.Renew)
		line("Latency/impl="+l.Impl+"/op=release", l.Release.Count, l.Release)
		line("Latency/impl="+l.Impl+"/op=cycle", l.Cycle.Count, l.Cycle)
	}
	for _, c := range rep.Contend {
		if c.Grants == 0 {
			continue
		}
		fmt.Fprintf(&b, "BenchmarkContention/impl=%s/loop=%s/clients=%d/keys=%d-%d\t%d\t%.0f ns/op\t%.1f grants/s\t%d wait-p99-ns\t%d wait-max-ns\t%.3f fairness\t%d worst-p99-ns\t%.2f cmds/grant\t%d timeouts\n",
			c.Impl, c.Mode, c.Clients, c.Keys, procs, c.Grants, 1e9/c.GrantsPerSec, c.GrantsPerSec,
			c.Wait.P99, c.Wait.Max, c.Fairness, c.WorstClientP99, c.CommandsPerGrant, c.Timeouts)
	}
	for _, s := range rep.Safety {
		fence := "none"
		if s.Fenced {
			fence = "enforced"
		}
		fmt.Fprintf(&b, "BenchmarkSafety/impl=%s/fence=%s-%d\t%d\t%d stale-accepted\t%d overlaps\n",
			s.Impl, fence, procs, s.Grants, s.StaleAccepted, s.Overlap)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
