package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"
)

// Workload names.
const (
	WorkLatency    = "latency"
	WorkContention = "contention"
	WorkSafety     = "safety"
)

// Config is what a run measures and how long it takes. Durations are in
// nanoseconds in JSON.
type Config struct {
	Workloads []string `json:"workloads"`
	// Latency: iterations of PING, SET, acquire, renew, release per
	// implementation, one client.
	Ops int `json:"ops"`
	// Contention: client counts of the sweep (1, 2, 4, ... Clients), on
	// Keys keys, each phase Duration long; locks held for Hold drawn from
	// HoldDist ("fixed", "exp", "uniform").
	Clients        int           `json:"clients"`
	Sweep          []int         `json:"sweep"`
	Keys           int           `json:"keys"`
	Duration       time.Duration `json:"duration_ns"`
	TTL            time.Duration `json:"ttl_ns"`
	Hold           time.Duration `json:"hold_ns"`
	HoldDist       string        `json:"hold_dist"`
	HoldGiven      bool          `json:"hold_given"`
	AcquireTimeout time.Duration `json:"acquire_timeout_ns"`
	// Rate is the open-loop arrival rate (acquires per second over all
	// clients); 0 means half the slowest implementation's closed-loop
	// rate at Clients, so every implementation sees the same arrivals.
	Rate float64 `json:"rate"`
	// Plain SET throughput yardstick.
	SetClients  int           `json:"set_clients"`
	SetDuration time.Duration `json:"set_duration_ns"`
	// Watchdog renew margin: a lease with WatchdogTTL renewed every
	// WatchdogTTL/3 for WatchdogDuration.
	WatchdogTTL      time.Duration `json:"watchdog_ttl_ns"`
	WatchdogDuration time.Duration `json:"watchdog_duration_ns"`
	// Safety: SafetyClients holders on one key with SafetyTTL; a holder
	// pauses for SafetyPause (longer than the TTL) with probability 1/4.
	SafetyClients  int           `json:"safety_clients"`
	SafetyTTL      time.Duration `json:"safety_ttl_ns"`
	SafetyPause    time.Duration `json:"safety_pause_ns"`
	SafetyDuration time.Duration `json:"safety_duration_ns"`
	// Advice inputs: clock drift as a fraction of the TTL plus a fixed
	// allowance, and the longest pause the application expects (0: use
	// the pauses observed during the run).
	Drift float64 `json:"drift"`
	// AdviseFor is the implementation the TTL advice is for ("" means
	// safelock): lockbench sets it to the first --impl.
	AdviseFor  string        `json:"advise_for,omitempty"`
	DriftFixed time.Duration `json:"drift_fixed_ns"`
	AppPause   time.Duration `json:"app_pause_ns"`
}

// DefaultConfig is a run that finishes in seconds.
func DefaultConfig() Config {
	return Config{
		Workloads:        []string{WorkLatency, WorkContention, WorkSafety},
		Ops:              500,
		Clients:          8,
		Keys:             1,
		Duration:         100 * time.Millisecond,
		TTL:              5 * time.Second,
		Hold:             time.Millisecond,
		HoldDist:         "fixed",
		AcquireTimeout:   2 * time.Second,
		SetClients:       50,
		SetDuration:      250 * time.Millisecond,
		WatchdogTTL:      30 * time.Millisecond,
		WatchdogDuration: 120 * time.Millisecond,
		SafetyClients:    4,
		SafetyTTL:        50 * time.Millisecond,
		SafetyPause:      150 * time.Millisecond,
		SafetyDuration:   time.Second,
		Drift:            0.01,
		DriftFixed:       2 * time.Millisecond,
	}
}

// Validate reports impossible settings in terms of the command's flags.
func (c *Config) Validate() error {
	for _, w := range c.Workloads {
		if w != WorkLatency && w != WorkContention && w != WorkSafety {
			return fmt.Errorf("--workload: unknown workload %q (want latency, contention, safety)", w)
		}
	}
	switch {
	case len(c.Workloads) == 0:
		return errors.New("--workload: nothing to run")
	case c.Ops < 1:
		return errors.New("--ops must be at least 1")
	case c.Clients < 1:
		return errors.New("--clients must be at least 1")
	case c.Keys < 1:
		return errors.New("--keys must be at least 1")
	case c.Keys > c.Clients && c.has(WorkContention):
		return fmt.Errorf("--keys %d is more than --clients %d: some keys would never be contended", c.Keys, c.Clients)
	case c.Duration <= 0:
		return errors.New("--duration must be positive")
	case c.TTL < time.Millisecond:
		return errors.New("--ttl must be at least 1ms")
	case c.Hold < 0:
		return errors.New("--hold must not be negative")
	case c.Hold >= c.TTL:
		return fmt.Errorf("--hold %s must be shorter than --ttl %s (the lock would expire while held)", c.Hold, c.TTL)
	case c.HoldDist != "fixed" && c.HoldDist != "exp" && c.HoldDist != "uniform":
		return fmt.Errorf("--hold-dist %q: want fixed, exp or uniform", c.HoldDist)
	case c.AcquireTimeout <= 0:
		return errors.New("--acquire-timeout must be positive")
	case c.Rate < 0:
		return errors.New("--rate must not be negative")
	case c.SetClients < 1:
		return errors.New("--set-clients must be at least 1")
	case c.SetDuration <= 0:
		return errors.New("--set-duration must be positive")
	case c.SafetyClients < 2:
		return errors.New("--safety-clients must be at least 2 (someone must take over from a paused holder)")
	case c.SafetyTTL < time.Millisecond:
		return errors.New("--safety-ttl must be at least 1ms")
	case c.SafetyPause <= c.SafetyTTL:
		return fmt.Errorf("--safety-pause %s must be longer than --safety-ttl %s: the workload pauses holders past their TTL", c.SafetyPause, c.SafetyTTL)
	case c.Drift < 0 || c.Drift >= 0.3:
		return errors.New("--drift must be in [0, 0.3)")
	case c.AppPause < 0:
		return errors.New("--pause must not be negative")
	}
	if len(c.Sweep) == 0 {
		for n := 1; n < c.Clients; n *= 2 {
			c.Sweep = append(c.Sweep, n)
		}
		c.Sweep = append(c.Sweep, c.Clients)
	}
	return nil
}

func (c *Config) has(w string) bool { return slices.Contains(c.Workloads, w) }

// Progress is told how far a run has come; label names the current step.
type Progress func(done, total int, label string)

// runner carries one run's state.
type runner struct {
	t      *Target
	cfg    Config
	prefix string
	prog   Progress
	step   int
	total  int
}

func (r *runner) progress(label string) {
	if r.prog != nil {
		r.prog(r.step, r.total, label)
	}
	r.step++
}

func (r *runner) key(parts ...any) string {
	k := r.prefix
	for _, p := range parts {
		k += ":" + fmt.Sprint(p)
	}
	return k
}

// Run measures the configured workloads on t for every implementation in
// impls. Implementations that cannot run on t are listed in Skipped.
func Run(ctx context.Context, t *Target, impls []Factory, cfg Config, prog Progress) (*Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var id [4]byte
	_, _ = rand.Read(id[:])
	r := &runner{t: t, cfg: cfg, prefix: "lockbench:" + hex.EncodeToString(id[:]), prog: prog}
	host, _ := os.Hostname()
	rep := &Report{
		Schema: "lockbench", Version: SchemaVersion, Started: time.Now().UTC(), Config: cfg,
		Sources: []Source{{Host: host, Target: t.Describe(), Kind: t.Kind, Server: t.Server, Note: t.Note,
			Go: runtime.Version(), CPUs: runtime.NumCPU()}},
	}
	start := time.Now()
	pd := startPauseDetector()

	var lockers []Locker
	defer func() {
		for _, l := range lockers {
			_ = l.Close()
		}
	}()
	for _, f := range impls {
		l, err := f.New(t)
		if err != nil {
			rep.Skipped = append(rep.Skipped, Skip{Impl: f.Name, Reason: t.scrub(err).Error()})
			continue
		}
		lockers = append(lockers, l)
		rep.Impls = append(rep.Impls, ImplInfo{Name: f.Name, About: f.About})
	}
	if len(lockers) == 0 {
		pd.stop()
		return nil, errors.New("no implementation can run on this target")
	}

	if cfg.has(WorkLatency) {
		r.total += len(lockers) + 1
	}
	if cfg.has(WorkContention) {
		r.total += len(lockers) * (len(cfg.Sweep)*cfg.slices() + 1)
	}
	if cfg.has(WorkSafety) {
		r.total += 2
	}

	var err error
	if cfg.has(WorkLatency) {
		err = r.latency(ctx, rep, lockers)
	}
	if err == nil && cfg.has(WorkContention) {
		err = r.contention(ctx, rep, lockers)
	}
	if err == nil && cfg.has(WorkSafety) {
		err = r.safety(ctx, rep, lockers)
	}
	rep.Pauses = pd.stop().Op()
	r.cleanup(ctx) // also after an interrupted run
	if err != nil {
		return nil, t.scrub(err)
	}
	rep.Sources[0].Duration = int64(time.Since(start))
	rep.Advice = Advise(rep)
	if prog != nil {
		prog(r.total, r.total, "done")
	}
	return rep, nil
}

// cleanup deletes the keys the run left: resources, fence records (which
// never expire), plain SET keys, locks of an interrupted run. It scans every
// node (every primary of a cluster) and deletes key by key, so it also works
// where keys live in different slots. Best effort: a failure only leaves
// keys that carry the run's prefix.
func (r *runner) cleanup(ctx context.Context) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	// safelock keeps fence counters ("safelock:fence:{key}") and
	// safelock/fence its records ("safelock:fenced:{key}"); both outlive
	// the locks on purpose.
	patterns := []string{r.prefix + "*", "safelock:*{" + r.prefix + "*"}
	clean := func(ctx context.Context, c *redis.Client) error {
		for _, pattern := range patterns {
			iter := c.Scan(ctx, 0, pattern, 1000).Iterator()
			for iter.Next(ctx) {
				_ = c.Del(ctx, iter.Val()).Err()
			}
		}
		return nil
	}
	for _, c := range r.t.Clients {
		switch c := c.(type) {
		case *redis.ClusterClient:
			_ = c.ForEachMaster(cctx, clean)
		case *redis.Client:
			_ = clean(cctx, c)
		}
	}
}
