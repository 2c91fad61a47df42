package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// SchemaVersion is the version of the JSON report. It changes only when a
// field changes meaning or is removed; new fields may be added within a
// version. See cmd/lockbench/SCHEMA.md.
const SchemaVersion = 1

// Report is everything one run (or a merge of runs) measured. Every
// distribution keeps its HDR snapshot, so reports merge without losing the
// tail.
type Report struct {
	Schema  string    `json:"schema"` // always "lockbench"
	Version int       `json:"version"`
	Started time.Time `json:"started"`
	// Sources lists the runs merged into this report (one entry for a
	// single run).
	Sources []Source      `json:"sources"`
	Config  Config        `json:"config"`
	Impls   []ImplInfo    `json:"impls"`
	Skipped []Skip        `json:"skipped,omitempty"`
	Base    *Baseline     `json:"baseline,omitempty"`
	Latency []*LatencyRes `json:"latency,omitempty"`
	Contend []*ContendRes `json:"contention,omitempty"`
	Safety  []*SafetyRes  `json:"safety,omitempty"`
	Pauses  *Op           `json:"pauses,omitempty"`
	Advice  *Advice       `json:"advice,omitempty"`
}

// Source describes one run.
type Source struct {
	Host     string `json:"host"`
	Target   string `json:"target"` // kind and addresses, password redacted
	Kind     string `json:"kind"`
	Server   string `json:"server"`
	Note     string `json:"note,omitempty"`
	Go       string `json:"go"`
	CPUs     int    `json:"cpus"`
	Duration int64  `json:"duration_ns"`
}

// ImplInfo names a compared implementation.
type ImplInfo struct {
	Name  string `json:"name"`
	About string `json:"about"`
}

// Skip records an implementation or workload that could not run, and why.
type Skip struct {
	Impl   string `json:"impl"`
	Reason string `json:"reason"`
}

// Baseline is the plain-command yardstick measured in the same run.
type Baseline struct {
	Ping *Op `json:"ping"`
	Set  *Op `json:"set"`
	// RTT is the p50 of PING: one round trip, the unit every lock figure
	// is also given in.
	RTT int64 `json:"rtt_ns"`
	// SetRate is plain SET throughput with SetClients concurrent clients,
	// to compare with redis-benchmark -t set -c SetClients.
	SetClients int     `json:"set_clients"`
	SetOps     int64   `json:"set_ops"`
	SetRate    float64 `json:"set_ops_per_sec"`
}

// LatencyRes is the uncontended latency of one implementation.
type LatencyRes struct {
	Impl    string `json:"impl"`
	Acquire *Op    `json:"acquire"`
	Release *Op    `json:"release"`
	Renew   *Op    `json:"renew"`
	// Cycle is acquire+release, the least a critical section costs.
	Cycle *Op `json:"cycle"`
	// CommandsPerCycle and RoundTripsPerCycle count what went over the
	// wire per acquire+renew+release (a pipeline is one round trip).
	CommandsPerCycle   float64 `json:"commands_per_cycle"`
	RoundTripsPerCycle float64 `json:"round_trips_per_cycle"`
	// RenewMargin is the time left on the lease when a watchdog's renew
	// (every ttl/3) was confirmed.
	RenewMargin *Op   `json:"renew_margin,omitempty"`
	RenewTTL    int64 `json:"renew_ttl_ns,omitempty"`
}

// ContendRes is one contention run: one implementation, one client count.
type ContendRes struct {
	Impl    string `json:"impl"`
	Mode    string `json:"mode"`    // "closed" or "open"
	Clients int    `json:"clients"` // over all merged runs
	// RunClients is the client count of one run (the sweep step); it
	// equals Clients unless runs were merged.
	RunClients int     `json:"run_clients"`
	Keys       int     `json:"keys"`
	Rate       float64 `json:"rate,omitempty"` // open loop: intended acquires per second
	Duration   int64   `json:"duration_ns"`
	Grants     int64   `json:"grants"`
	// GrantsPerSec sums over merged runs (they ran at the same time).
	GrantsPerSec float64 `json:"grants_per_sec"`
	// Wait is request (or, open loop, intended start) to grant.
	Wait    *Op `json:"wait"`
	Handoff *Op `json:"handoff"` // release to the next grant of the same key
	Hold    *Op `json:"hold"`
	Release *Op `json:"release"`
	// RenewMargin: holds longer than TTL/3 are renewed every TTL/3; the
	// time left on the lease at each confirmed renew, under contention.
	RenewMargin *Op `json:"renew_margin,omitempty"`
	// PerClient is grants per client; Fairness is Jain's index over it.
	PerClient      []int64 `json:"per_client_grants"`
	PerClientP99   []int64 `json:"per_client_wait_p99_ns"`
	Fairness       float64 `json:"fairness"`
	WorstClientP99 int64   `json:"worst_client_wait_p99_ns"`
	Starved        int     `json:"starved_clients"`
	Timeouts       int64   `json:"acquire_timeouts"`
	// StillWaiting counts requests still waiting when the phase ended;
	// their wait so far is included in Wait (a lower bound).
	StillWaiting int64 `json:"still_waiting"`
	// Reacquired counts grants that went to the client that released the
	// key just before, while others were waiting.
	Reacquired       int64   `json:"reacquired"`
	Commands         int64   `json:"commands"`
	CommandsPerGrant float64 `json:"commands_per_grant"`
}

// SafetyRes is one safety scenario.
type SafetyRes struct {
	Impl    string `json:"impl"`
	Fenced  bool   `json:"fenced"`   // the resource checked the fence
	Checker string `json:"checker"`  // what enforced the fence, if anything
	Order   string `json:"order"`    // what orders the holders: fencing token or grant sequence
	Grants  int64  `json:"grants"`   // critical sections entered
	Paused  int64  `json:"paused"`   // holders that paused past the TTL
	Writes  int64  `json:"writes"`   // writes attempted at the resource
	Overlap int64  `json:"overlaps"` // critical sections that overlapped another
	// StaleAccepted counts writes from a holder whose lock had passed to
	// a later holder that had already written: the resource took an
	// older holder's write over a newer one.
	StaleAccepted int64            `json:"stale_accepted"`
	StaleRejected int64            `json:"stale_rejected"`
	Errors        map[string]int64 `json:"errors,omitempty"`
	TTL           int64            `json:"ttl_ns"`
	Pause         int64            `json:"pause_ns"`
}

// WriteJSON writes r as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads a report and checks its schema and version.
func ReadJSON(rd io.Reader) (*Report, error) {
	var r Report
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a lockbench JSON report: %w", err)
	}
	if r.Schema != "lockbench" {
		return nil, fmt.Errorf("not a lockbench JSON report (schema %q)", r.Schema)
	}
	if r.Version != SchemaVersion {
		return nil, fmt.Errorf("lockbench report version %d, this lockbench reads version %d", r.Version, SchemaVersion)
	}
	return &r, nil
}
