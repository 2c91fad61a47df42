// Package lab is lockbench's safety lab: holder processes that take a lock,
// read-modify-write a shared resource and release, while a fault schedule
// stops, kills or restarts parts of the system, and an offline checker that
// reads the recorded history and reports what went wrong.
//
// The checker judges by the resource's own order of writes, not by clocks:
// a write is stale when the resource had already accepted a write from a
// newer grant, and two critical sections overlapped when a write read a
// value that another accepted write had already replaced. Histories are
// JSON, so a run's verdict can be recomputed (and the checker improved)
// without running the faults again.
package lab

import (
	"cmp"
	"slices"
	"time"
)

// Grant is one lock grant as its holder saw it.
type Grant struct {
	Holder int `json:"holder"`
	// Order ranks the grant among all grants of the run: its fencing
	// token, or, for locks that issue none, the order in which the lab
	// saw the grants.
	Order   int64         `json:"order"`
	Token   string        `json:"token,omitempty"`
	Granted time.Duration `json:"granted_ns"` // since the run began, when the acquire returned
}

// Write is one holder's attempt to write the resource, as the resource
// recorded it.
type Write struct {
	Holder   int    `json:"holder"`
	Order    int64  `json:"order"` // the writing grant's Order
	Token    string `json:"token,omitempty"`
	Read     int64  `json:"read"`  // the value the holder read inside its section
	Wrote    int64  `json:"wrote"` // the value it wrote: Read + 1
	Accepted bool   `json:"accepted"`
	// Seq is the resource's order of the attempt among all attempts (an
	// autoincrement where it lands); the checker goes by it alone.
	Seq int64         `json:"seq"`
	At  time.Duration `json:"at_ns"`
	// Claim marks a fenced write of the fence alone, which a holder makes
	// before it reads (Read and Wrote are then 0): it orders the grant at
	// the resource but writes no value.
	Claim bool `json:"claim,omitempty"`
}

// Fault is one injected fault.
type Fault struct {
	Kind   string        `json:"kind"`             // pause, crash, restart, failover
	Holder int           `json:"holder,omitempty"` // the process it hit, for pause and crash
	At     time.Duration `json:"at_ns"`            // since the run began
	Until  time.Duration `json:"until_ns"`         // when it ended (the SIGCONT, the restart done); At for a crash
}

// History is everything a run recorded about one lock implementation
// against one resource.
type History struct {
	Impl     string  `json:"impl"`
	Resource string  `json:"resource"` // sql or redis
	Fenced   bool    `json:"fenced"`   // the resource checked the fence
	Initial  int64   `json:"initial"`
	Final    int64   `json:"final"`
	Grants   []Grant `json:"grants"`
	Writes   []Write `json:"writes"`
	Faults   []Fault `json:"faults"`
}

// Verdict is what the checker found in a history.
type Verdict struct {
	Grants   int `json:"grants"`
	Writes   int `json:"writes"`
	Accepted int `json:"accepted"`
	// StaleAccepted counts writes the resource accepted although it had
	// already accepted a write of a newer grant (or of another grant with
	// the same Order): a holder that lost the lock wrote over its
	// successor.
	StaleAccepted int `json:"stale_accepted"`
	// StaleRejected counts such writes the resource refused (the fence at
	// work); Refused counts other refused writes.
	StaleRejected int `json:"stale_rejected"`
	Refused       int `json:"refused"`
	// Claims counts fence claims (see Write.Claim); ClaimsRefused those
	// the resource refused because a newer grant had claimed or written.
	Claims        int `json:"claims,omitempty"`
	ClaimsRefused int `json:"claims_refused,omitempty"`
	// Overlaps counts accepted writes whose read had already been replaced
	// by another accepted write: two critical sections interleaved at the
	// resource.
	Overlaps int `json:"overlaps"`
	// LostUpdates is the number of accepted increments the final value
	// does not show.
	LostUpdates int64 `json:"lost_updates"`
	// Recovery is, for each fault in order, the time from its start to
	// the first grant after it; -1 when no grant followed.
	Recovery []time.Duration `json:"recovery_ns"`
}

// Outcome is what the checker made of one write.
type Outcome int

// Outcomes, one per write or claim.
const (
	Accepted      Outcome = iota // a fresh write, based on the current value
	StaleAccepted                // accepted after a newer grant's write or claim
	Overlap                      // accepted, fresh, but based on a replaced value
	StaleRefused                 // refused: a newer grant had written or claimed
	Refused                      // refused for another reason
	Claimed                      // a claim accepted
	ClaimRefused                 // a claim refused
)

// Classify returns the writes in the resource's order with the outcome of
// each. A stale write accepted is counted as stale even when its read was
// also replaced.
func Classify(h History) ([]Write, []Outcome) {
	writes := slices.Clone(h.Writes)
	slices.SortStableFunc(writes, func(a, b Write) int { return cmp.Compare(a.Seq, b.Seq) })
	out := make([]Outcome, len(writes))
	var (
		newest      int64  // highest Order among accepted writes and claims so far
		newestToken string // the grant that has it
		written     bool   // any accepted yet
		value       = h.Initial
	)
	for i, w := range writes {
		// An equal Order from another grant is a duplicate (a fence issued
		// twice, after a failover that lost the counter's last INCRs).
		stale := written && (w.Order < newest || w.Order == newest && w.Token != newestToken)
		switch {
		case w.Claim && !w.Accepted:
			out[i] = ClaimRefused
		case w.Claim:
			out[i] = Claimed
		case !w.Accepted && stale:
			out[i] = StaleRefused
		case !w.Accepted:
			out[i] = Refused
		case stale:
			out[i] = StaleAccepted
		case w.Read != value:
			out[i] = Overlap
		default:
			out[i] = Accepted
		}
		if !w.Accepted {
			continue
		}
		if !w.Claim {
			value = w.Wrote
		}
		if !written || w.Order > newest {
			newest, newestToken, written = w.Order, w.Token, true
		}
	}
	return writes, out
}

// Check computes the verdict of a history.
func Check(h History) Verdict {
	v := Verdict{Grants: len(h.Grants)}
	writes, outcomes := Classify(h)
	for i, o := range outcomes {
		if !writes[i].Claim {
			v.Writes++
		}
		switch o {
		case Accepted:
			v.Accepted++
		case StaleAccepted:
			v.Accepted++
			v.StaleAccepted++
			if writes[i].Read != valueBefore(h, writes, i) {
				v.Overlaps++
			}
		case Overlap:
			v.Accepted++
			v.Overlaps++
		case StaleRefused:
			v.StaleRejected++
		case Refused:
			v.Refused++
		case Claimed:
			v.Claims++
		case ClaimRefused:
			v.Claims++
			v.ClaimsRefused++
		}
	}
	v.LostUpdates = int64(v.Accepted) - (h.Final - h.Initial)
	grants := slices.Clone(h.Grants)
	slices.SortFunc(grants, func(a, b Grant) int { return cmp.Compare(a.Granted, b.Granted) })
	for _, f := range h.Faults {
		i, _ := slices.BinarySearchFunc(grants, f.At, func(g Grant, at time.Duration) int { return cmp.Compare(g.Granted, at) })
		for i < len(grants) && grants[i].Granted <= f.At {
			i++
		}
		if i == len(grants) {
			v.Recovery = append(v.Recovery, -1)
			continue
		}
		v.Recovery = append(v.Recovery, grants[i].Granted-f.At)
	}
	return v
}

// valueBefore is the resource's value just before writes[i] landed.
func valueBefore(h History, writes []Write, i int) int64 {
	for j := i - 1; j >= 0; j-- {
		if writes[j].Accepted && !writes[j].Claim {
			return writes[j].Wrote
		}
	}
	return h.Initial
}
