package lab

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText prints one row per scenario and fault kind: what the resource
// accepted and refused, what was lost, and how long the lock took to be
// granted again after each fault.
func (r *Result) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Safety lab: %d holder processes, ttl %v, %v between read and write, pauses of %v (SIGSTOP), seed %d\n",
		r.Processes, r.TTL, r.Hold, r.Pause, r.Seed)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "resource\timpl\tfence\tfaults\tgrants\twrites\tstale accepted\tstale refused\toverlaps\tlost updates\trecovery p50\trecovery max\t")
	for _, sc := range r.Scenarios {
		v := sc.Verdict
		fence := "off"
		if sc.History.Fenced {
			fence = "checked"
		}
		var rec []time.Duration
		for _, d := range v.Recovery {
			if d >= 0 {
				rec = append(rec, d)
			}
		}
		p50, worst := "-", "-"
		if len(rec) > 0 {
			slices.Sort(rec)
			p50, worst = rec[len(rec)/2].Round(time.Millisecond/10).String(), rec[len(rec)-1].Round(time.Millisecond/10).String()
		}
		if len(rec) < len(v.Recovery) {
			worst = "never"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", sc.History.Resource, sc.History.Impl, fence, faultCounts(sc.History.Faults),
			v.Grants, v.Writes, v.StaleAccepted, v.StaleRejected, v.Overlaps, v.LostUpdates, p50, worst)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "  resource: a SQLite row (fence checked by safelock/fence Table.Update) or a Redis key on a server of its own\n"+
		"  (fence.SetScript); stale: a write of a grant older than one whose write or claim the resource had accepted;\n"+
		"  overlaps: writes based on a value another write had replaced; recovery: fault to the next grant. With the fence\n"+
		"  checked, holders claim their fence on the resource before reading (see safelock/fence).")
	return err
}

func faultCounts(fs []Fault) string {
	n := map[string]int{}
	for _, f := range fs {
		n[f.Kind]++
	}
	var parts []string
	for _, k := range []string{Pause, Crash, Restart, Failover} {
		if n[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[k], k))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// WriteJSON writes the result with every scenario's raw history, so that
// Check can be run on it again.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
