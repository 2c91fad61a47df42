package lab

import (
	"bufio"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/locklint/locklint/internal/bench/adapters"
)

// Fault kinds.
const (
	Pause   = "pause"   // SIGSTOP a holder inside its critical section for longer than the TTL, then SIGCONT
	Crash   = "crash"   // SIGKILL a holder inside its critical section (a new process takes its slot)
	Restart = "restart" // restart redis-server without persistence while the lock is held
	// Failover: kill a primary right after an acquire its replica has not
	// received (replication stalled), promote the replica, point the
	// clients at it.
	Failover = "failover"
)

// Config is one lab run.
type Config struct {
	Impls     []string      // implementations, by lockbench name
	Processes int           // holder processes per scenario
	Duration  time.Duration // per scenario
	TTL       time.Duration
	Hold      time.Duration // time inside the critical section between read and write
	// FailoverHold is Hold in failover scenarios: a double grant after a
	// failover shows only when a section outlasts the failover and the
	// clients' reconnection, as sections of seconds-long jobs do.
	FailoverHold time.Duration
	Pause        time.Duration // how long a paused holder stays stopped; longer than TTL
	Faults       []string      // fault kinds, one scenario each
	Resources    []string      // sql, redis: one scenario each
	Every        time.Duration // normal running between the end of a fault and the next
	Seed         uint64        // makes the schedule (the holders hit) repeatable
	Progress     func(string)  // optional
}

// Scenario is one implementation, with the fence checked or not, under
// one kind of fault, injected every Config.Every.
type Scenario struct {
	History History        `json:"history"`
	Verdict Verdict        `json:"verdict"`
	Errors  map[string]int `json:"errors,omitempty"` // worker-reported errors by cause
}

// Result is a whole lab run.
type Result struct {
	Processes int           `json:"processes"`
	TTL       time.Duration `json:"ttl_ns"`
	Pause     time.Duration `json:"pause_ns"`
	Hold      time.Duration `json:"hold_ns"`
	Seed      uint64        `json:"seed"`
	Scenarios []Scenario    `json:"scenarios"`
}

func (c *Config) check() error {
	switch {
	case len(c.Impls) == 0:
		return errors.New("lab: no implementation")
	case len(c.Faults) == 0:
		return errors.New("lab: no fault kind")
	case len(c.Resources) == 0:
		return errors.New("lab: no resource")
	case c.Processes < 2:
		return fmt.Errorf("lab: %d processes; need at least 2", c.Processes)
	case c.TTL <= 0 || c.Hold <= 0 || c.Duration <= 0 || c.Every <= 0:
		return errors.New("lab: ttl, hold, duration and fault interval must be positive")
	case c.FailoverHold <= 0 && slices.Contains(c.Faults, Failover):
		return errors.New("lab: the failover hold must be positive")
	case c.Pause <= c.TTL:
		return fmt.Errorf("lab: pause %v must be longer than the ttl %v", c.Pause, c.TTL)
	}
	for _, f := range c.Faults {
		if f != Pause && f != Crash && f != Restart && f != Failover {
			return fmt.Errorf("lab: unknown fault %q (pause, crash, restart, failover)", f)
		}
	}
	for _, r := range c.Resources {
		if r != resourceSQL && r != resourceRedis {
			return fmt.Errorf("lab: unknown resource %q (sql, redis)", r)
		}
	}
	for _, name := range c.Impls {
		if _, err := findImpl(name); err != nil {
			return fmt.Errorf("lab: %w", err)
		}
	}
	return nil
}

// Run spawns a redis-server and runs, one after another, a scenario for
// every implementation, fault kind, and the fence unchecked and (for
// implementations that issue fences) checked, each with fresh keys and a
// fresh resource.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	srv, err := bench.Spawn(ctx)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	dir, err := os.MkdirTemp("", "lockbench-lab-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	res := &Result{Processes: cfg.Processes, TTL: cfg.TTL, Pause: cfg.Pause, Hold: cfg.Hold, Seed: cfg.Seed}
	fences := map[string]bool{}
	for _, impl := range cfg.Impls {
		probe := impl
		if impl == adapters.SafelockReplicaAck.Name {
			probe = adapters.Safelock.Name // WAIT needs a replica; same fences
		}
		if fences[impl], err = issuesFences(ctx, srv.Addr, probe); err != nil {
			return nil, err
		}
	}
	var resSrv *bench.Spawned // the redis resource's own server, untouched by the faults
	if slices.Contains(cfg.Resources, resourceRedis) {
		if resSrv, err = bench.Spawn(ctx); err != nil {
			return nil, err
		}
		defer resSrv.Stop()
	}
	n := 0
	for _, resource := range cfg.Resources {
		for _, kind := range cfg.Faults {
			for _, impl := range implsFor(kind, cfg.Impls) {
				for _, fenced := range []bool{false, true} {
					if fenced && !fences[impl] && impl != adapters.SafelockReplicaAck.Name {
						continue
					}
					n++
					sc := &scenario{cfg: cfg, srv: srv, impl: impl, fenced: fenced, kind: kind, index: n, resource: resource,
						db: filepath.Join(dir, fmt.Sprintf("%d-%s-%s-%t.db", n, impl, kind, fenced))}
					if resSrv != nil {
						sc.resourceAddr = resSrv.Addr
					}
					if cfg.Progress != nil {
						cfg.Progress(fmt.Sprintf("lab: %s resource, %s, %s, fence checked %t", resource, kind, impl, fenced))
					}
					out, err := sc.run(ctx)
					if err != nil {
						return nil, fmt.Errorf("lab: %s (%s resource, %s, fence %t): %w", impl, resource, kind, fenced, err)
					}
					res.Scenarios = append(res.Scenarios, *out)
				}
			}
		}
	}
	return res, nil
}

// ttl is the lock ttl of the scenario: in a failover scenario longer than
// its sections, so that a section outlasts the failover without outlasting
// its own lease.
func (s *scenario) ttl() time.Duration {
	if s.kind == Failover {
		return max(s.cfg.TTL, 4*s.cfg.FailoverHold)
	}
	return s.cfg.TTL
}

// implsFor lists the implementations a fault kind puts through: a
// failover also takes safelock with WithReplicaAck (when safelock is
// listed), which the other faults, on a server without replicas, cannot.
func implsFor(kind string, impls []string) []string {
	ack := adapters.SafelockReplicaAck.Name
	var out []string
	for _, impl := range impls {
		if impl != ack || kind == Failover {
			out = append(out, impl)
		}
	}
	if kind == Failover && slices.Contains(impls, adapters.Safelock.Name) && !slices.Contains(impls, ack) {
		out = append(out, ack)
	}
	return out
}

func issuesFences(ctx context.Context, addr, impl string) (bool, error) {
	f, err := findImpl(impl)
	if err != nil {
		return false, err
	}
	tg, err := bench.Open(ctx, bench.Spec{Redis: []string{"redis://" + addr}})
	if err != nil {
		return false, err
	}
	defer tg.Close()
	l, err := f.New(tg)
	if err != nil {
		return false, err
	}
	defer func() { _ = l.Close() }()
	lease, err := l.TryAcquire(ctx, "lab:probe:"+impl, time.Second)
	if err != nil {
		return false, fmt.Errorf("%s: probing for fencing tokens: %w", impl, err)
	}
	defer func() { _ = lease.Release(ctx) }()
	return lease.Fence() != 0, nil
}

type scenario struct {
	cfg    Config
	srv    *bench.Spawned
	impl   string
	fenced bool
	kind   string // the fault this scenario injects
	index  int
	db     string
	topo   *replicated // the failover scenario's primary and replica

	resource     string  // sql or redis
	resourceAddr string  // the redis resource's server
	writes       []Write // reported by the holders (redis resource)

	nextGranted chan struct{} // closed at the next grant event (failover waits on it)

	start, until time.Time

	mu     sync.Mutex
	procs  map[int]*proc // by holder slot
	grants []event       // grant events, with Gid and Fence
	holder map[int64]int // gid -> holder
	errs   map[string]int
	wg     sync.WaitGroup
}

type proc struct {
	cmd     *exec.Cmd
	gen     int
	inGid   int64     // the grant whose section it is in (after "in", before "out"); 0 outside
	inAt    time.Time // when the coordinator heard "in"
	stopped bool
}

func (s *scenario) run(ctx context.Context) (*Scenario, error) {
	db, err := openResource(s.db) // creates the schema before the workers race to
	if err != nil {
		return nil, err
	}
	defer func() { _ = db.Close() }()
	if s.kind == Failover {
		if s.topo, err = newReplicated(ctx); err != nil {
			return nil, err
		}
		defer s.topo.close()
	}
	s.procs, s.holder, s.errs = map[int]*proc{}, map[int64]int{}, map[string]int{}
	s.start = time.Now()
	s.until = s.start.Add(s.cfg.Duration)
	for h := 1; h <= s.cfg.Processes; h++ {
		if err := s.spawn(h, 0); err != nil {
			s.killAll()
			return nil, err
		}
	}
	faults := s.inject(ctx)
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Until(s.until) + s.cfg.TTL + 30*time.Second):
		s.killAll()
		<-done
	case <-ctx.Done():
		s.killAll()
		<-done
		return nil, ctx.Err()
	}
	ws, gids, final, err := s.recorded(ctx, db)
	if err != nil {
		return nil, err
	}
	h := History{Impl: s.impl, Resource: s.resource, Fenced: s.fenced, Final: final, Faults: faults}
	s.mu.Lock()
	defer s.mu.Unlock()
	orders := s.orders()
	for _, g := range s.grants {
		h.Grants = append(h.Grants, Grant{Holder: s.holder[g.Gid], Order: orders[g.Gid], Token: strconv.FormatInt(g.Gid, 10), Granted: time.Duration(g.T)})
	}
	for i := range ws {
		ws[i].Order = orders[gids[i]]
		ws[i].Token = strconv.FormatInt(gids[i], 10)
	}
	h.Writes = ws
	out := &Scenario{History: h, Verdict: Check(h)}
	if len(s.errs) > 0 {
		out.Errors = s.errs
	}
	return out, nil
}

// recorded returns the writes in the resource's order, each one's grant
// id, and the final value: from the SQL table, or as the holders reported
// them and the redis resource's key.
func (s *scenario) recorded(ctx context.Context, db *sql.DB) ([]Write, map[int]int64, int64, error) {
	if s.resource != resourceRedis {
		return recorded(ctx, db)
	}
	r, err := newRedisResource(s.resourceAddr, s.resourceKey())
	if err != nil {
		return nil, nil, 0, err
	}
	defer func() { _ = r.close() }()
	final, err := r.read(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := slices.Clone(s.writes)
	slices.SortFunc(ws, func(a, b Write) int { return cmp.Compare(a.Seq, b.Seq) })
	gids := map[int]int64{}
	for i, w := range ws {
		gids[i], _ = strconv.ParseInt(w.Token, 10, 64)
	}
	return ws, gids, final, nil
}

// orders ranks the grants: by fence when the lock issues fences, else by
// the time each holder reported its grant (one machine, one clock).
func (s *scenario) orders() map[int64]int64 {
	byTime := slices.Clone(s.grants)
	slices.SortStableFunc(byTime, func(a, b event) int { return cmp.Compare(a.T, b.T) })
	out := map[int64]int64{}
	for i, g := range byTime {
		out[g.Gid] = int64(i + 1)
		if g.Fence != 0 {
			out[g.Gid] = g.Fence
		}
	}
	return out
}

func (s *scenario) hold() time.Duration {
	if s.kind == Failover {
		return s.cfg.FailoverHold
	}
	return s.cfg.Hold
}

func (s *scenario) resourceKey() string { return fmt.Sprintf("lab:resource:%d", s.index) }

// redisAddr is where the workers reach Redis: the spawned server, or the
// failover topology's front proxy.
func (s *scenario) redisAddr() string {
	if s.topo != nil {
		return s.topo.front.Addr()
	}
	return s.srv.Addr
}

// granted returns a channel closed at the next grant any holder reports.
func (s *scenario) granted() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nextGranted == nil {
		s.nextGranted = make(chan struct{})
	}
	return s.nextGranted
}

// spawn starts the worker process for a holder slot.
func (s *scenario) spawn(holder, gen int) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cfg, _ := json.Marshal(workerConfig{
		Redis: "redis://" + s.redisAddr(), Impl: s.impl, Key: fmt.Sprintf("lab:%d:%s", s.index, s.impl),
		TTL: s.ttl(), Hold: s.hold(), Holder: holder, Gen: gen, DB: s.db, Fenced: s.fenced,
		Start: s.start.UnixNano(), Until: s.until.UnixNano(),
		Resource: s.resource, ResourceAddr: s.resourceAddr, ResourceKey: s.resourceKey(),
	})
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), workerEnv+"="+string(cfg))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	p := &proc{cmd: cmd, gen: gen}
	s.mu.Lock()
	s.procs[holder] = p
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) != nil {
				continue
			}
			s.mu.Lock()
			switch e.Ev {
			case "grant":
				s.grants = append(s.grants, e)
				s.holder[e.Gid] = holder
				if s.nextGranted != nil {
					close(s.nextGranted)
					s.nextGranted = nil
				}
			case "in":
				p.inGid, p.inAt = e.Gid, time.Now()
			case "out":
				p.inGid = 0
			case "error":
				s.errs[e.Msg]++
			case "write":
				s.writes = append(s.writes, Write{Holder: holder, Read: e.Read, Wrote: e.Wrote, Accepted: e.OK, Claim: e.Claim,
					Seq: e.Seq, At: time.Duration(e.T), Token: strconv.FormatInt(e.Gid, 10)})
			}
			s.mu.Unlock()
		}
		_ = cmd.Wait()
	}()
	return nil
}

func (s *scenario) killAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.procs {
		_ = p.cmd.Process.Signal(syscall.SIGCONT)
		_ = p.cmd.Process.Kill()
	}
}

// inject runs the fault schedule until the scenario's end and returns
// the faults it injected, in order.
func (s *scenario) inject(ctx context.Context) []Fault {
	rng := rand.New(rand.NewPCG(s.cfg.Seed, uint64(s.index)))
	var faults []Fault
	// Each fault comes Every after the previous one ended, so that the
	// system runs normally in between even when a fault takes long (a
	// failover waits for a grant, then for a new replica to sync).
	at := s.start.Add(s.cfg.Every)
	for !at.Add(max(s.cfg.Pause, s.ttl())).After(s.until) {
		if bench.Sleep(ctx, time.Until(at)) != nil {
			break
		}
		if f, ok := s.fault(ctx, s.kind, rng); ok {
			faults = append(faults, f)
		}
		at = time.Now().Add(s.cfg.Every)
	}
	_ = bench.Sleep(ctx, time.Until(s.until))
	return faults
}

func (s *scenario) since() time.Duration { return time.Since(s.start) }

// fault injects one fault, once a holder has just entered its critical
// section (waiting up to a second for one): it is the holder stopped or
// killed, or the one inside while the server restarts.
func (s *scenario) fault(ctx context.Context, kind string, rng *rand.Rand) (Fault, bool) {
	if kind == Failover {
		killed, reachable, err := s.topo.fail(ctx, s.granted)
		if killed.IsZero() {
			s.mu.Lock()
			s.errs["lab: failover: "+err.Error()]++
			s.mu.Unlock()
			return Fault{}, false
		}
		if err != nil {
			s.mu.Lock()
			s.errs["lab: failover: "+err.Error()]++
			s.mu.Unlock()
		}
		f := Fault{Kind: Failover, At: killed.Sub(s.start), Until: killed.Sub(s.start)}
		if !reachable.IsZero() {
			f.Until = reachable.Sub(s.start)
		}
		return f, true
	}
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		var inside []int
		for h, p := range s.procs {
			// Only a holder that entered its section recently: the fault
			// must land before its write, not after its release.
			if p.inGid != 0 && !p.stopped && time.Since(p.inAt) < s.hold()/2 {
				inside = append(inside, h)
			}
		}
		slices.Sort(inside)
		if len(inside) == 0 {
			s.mu.Unlock()
			time.Sleep(time.Millisecond)
			continue
		}
		h := inside[rng.IntN(len(inside))]
		p := s.procs[h]
		f := Fault{Kind: kind, Holder: h, At: s.since()}
		switch kind {
		case Restart:
			s.mu.Unlock()
			if err := s.srv.Restart(ctx); err != nil {
				s.mu.Lock()
				s.errs["lab: "+err.Error()]++
				s.mu.Unlock()
				return Fault{}, false
			}
		case Crash:
			_ = p.cmd.Process.Kill()
			p.inGid = 0
			s.mu.Unlock()
			if err := s.spawn(h, p.gen+1); err != nil {
				s.mu.Lock()
				s.errs["lab: replacing a crashed holder: "+err.Error()]++
				s.mu.Unlock()
			}
		default:
			_ = p.cmd.Process.Signal(syscall.SIGSTOP)
			p.stopped = true
			s.mu.Unlock()
			_ = bench.Sleep(context.WithoutCancel(ctx), s.cfg.Pause)
			s.mu.Lock()
			_ = p.cmd.Process.Signal(syscall.SIGCONT)
			p.stopped = false
			s.mu.Unlock()
		}
		f.Until = s.since()
		return f, true
	}
	return Fault{}, false
}
