// Command lockbench measures Redis lock latency, contention and safety on
// your own Redis (or an embedded one), compares lock libraries side by side
// and recommends a TTL and renew interval.
//
//	lockbench                                   # embedded miniredis, a few seconds
//	lockbench --spawn                           # a redis-server from PATH, started for the run
//	lockbench --redis redis://user:pass@host:6379/0 --json run.json --html run.html
//	lockbench --redis redis://a:6379 --redis redis://b:6379 --redis redis://c:6379   # Redlock
//	lockbench --cluster 10.0.0.1:7000,10.0.0.2:7000
//	lockbench merge a.json b.json --html merged.html
//
// The measurement engine is internal/bench; this file only parses flags,
// opens the target and writes the outputs. The JSON schema is in SCHEMA.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/locklint/locklint/internal/bench/adapters"
	"github.com/locklint/locklint/internal/bench/lab"
	"github.com/redis/go-redis/v9"
	"golang.org/x/term"
)

func main() {
	lab.MaybeWorker() // a holder process of the safety lab, started by lockbench lab
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// outputs are the flags shared by a run and a merge.
type outputs struct {
	json, html string
	benchFmt   bool
}

func (o *outputs) register(fs *flag.FlagSet) {
	fs.StringVar(&o.json, "json", "", "write the report as JSON to `file` (- for stdout); schema in cmd/lockbench/SCHEMA.md")
	fs.StringVar(&o.html, "html", "", "write a self-contained HTML report with plots to `file`")
	fs.BoolVar(&o.benchFmt, "bench-format", false, "print Go benchmark lines (for benchstat) instead of the tables")
}

// run is the whole command; it returns the exit code. Errors are one line
// on stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	// go-redis logs dial failures on its own; lockbench reports them once.
	redis.SetLogger(quiet{})
	var err error
	switch {
	case len(args) > 0 && args[0] == "merge":
		err = runMerge(args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "lab":
		err = runLab(ctx, args[1:], stdout, stderr)
	default:
		err = runBench(ctx, args, stdout, stderr)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "lockbench: %v (see lockbench -h)\n", errors.Unwrap(err))
		return 2
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "lockbench: interrupted")
		return 130
	}
	fmt.Fprintf(stderr, "lockbench: %s\n", oneLine(err.Error()))
	return 1
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

var errUsage = errors.New("usage")

type usageError struct{ err error }

func (u usageError) Error() string        { return u.err.Error() }
func (u usageError) Unwrap() error        { return u.err }
func (u usageError) Is(target error) bool { return target == errUsage }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := bench.DefaultConfig()
	fs := flag.NewFlagSet("lockbench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var redisURLs, clusterAddrs listFlag
	var spawn, noProgress bool
	var workloads, impls string
	var out outputs
	fs.Var(&redisURLs, "redis", "Redis `URL` (redis:// or rediss://, user and password allowed); repeat for Redlock across independent nodes")
	fs.Var(&clusterAddrs, "cluster", "Redis Cluster seed `addrs` (host:port,...; a redis:// URL gives the credentials)")
	fs.BoolVar(&spawn, "spawn", false, "start a redis-server from PATH for the run")
	fs.StringVar(&workloads, "workload", strings.Join(cfg.Workloads, ","), "workloads to run: latency, contention, safety")
	fs.StringVar(&impls, "impl", "", "implementations to compare (default all): "+strings.Join(implNames(), ", "))
	fs.IntVar(&cfg.Ops, "ops", cfg.Ops, "latency: iterations per implementation")
	fs.IntVar(&cfg.Clients, "clients", cfg.Clients, "contention: largest client count; the sweep is 1, 2, 4, ... `N`")
	fs.IntVar(&cfg.Keys, "keys", cfg.Keys, "contention: number of keys the clients contend for")
	fs.DurationVar(&cfg.Duration, "duration", cfg.Duration, "contention: length of each phase")
	fs.DurationVar(&cfg.TTL, "ttl", cfg.TTL, "lock TTL for latency and contention")
	fs.DurationVar(&cfg.Hold, "hold", cfg.Hold, "critical-section time (also used by the TTL advice)")
	fs.StringVar(&cfg.HoldDist, "hold-dist", cfg.HoldDist, "hold-time distribution: fixed, exp or uniform")
	fs.DurationVar(&cfg.AcquireTimeout, "acquire-timeout", cfg.AcquireTimeout, "contention: give up an acquire after this long")
	fs.Float64Var(&cfg.Rate, "rate", cfg.Rate, "contention: open-loop acquires per second (0: half the slowest closed-loop rate)")
	fs.IntVar(&cfg.SetClients, "set-clients", cfg.SetClients, "clients for the plain SET throughput yardstick")
	fs.DurationVar(&cfg.SetDuration, "set-duration", cfg.SetDuration, "length of the plain SET throughput run")
	fs.DurationVar(&cfg.SafetyTTL, "safety-ttl", cfg.SafetyTTL, "safety: lock TTL")
	fs.DurationVar(&cfg.SafetyPause, "safety-pause", cfg.SafetyPause, "safety: pause of a stalled holder (longer than --safety-ttl)")
	fs.DurationVar(&cfg.SafetyDuration, "safety-duration", cfg.SafetyDuration, "safety: length of each scenario")
	fs.Float64Var(&cfg.Drift, "drift", cfg.Drift, "advice: clock drift allowance as a fraction of the TTL")
	fs.DurationVar(&cfg.AppPause, "pause", 0, "advice: longest pause your process may suffer (default: the longest stall observed)")
	fs.BoolVar(&noProgress, "no-progress", false, "no progress bar even on a terminal")
	out.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout, fs)
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", bench.RedactURL(fs.Arg(0)))
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "hold" {
			cfg.HoldGiven = true
		}
	})
	cfg.Workloads = splitList(workloads)
	if err := cfg.Validate(); err != nil {
		return usageError{err}
	}
	if out.json == "-" && out.benchFmt {
		return usagef("--json - and --bench-format both want stdout")
	}
	factories, err := selectImpls(impls)
	if err != nil {
		return usageError{err}
	}
	if impls != "" && impls != "all" {
		cfg.AdviseFor = factories[0].Name // the TTL advice is for the lock listed first
	}
	spec := bench.Spec{Redis: redisURLs, Cluster: clusterAddrs, Spawn: spawn,
		PoolSize: max(cfg.SetClients, cfg.Clients, cfg.SafetyClients) + 16}
	if n := boolCount(len(redisURLs) > 0, len(clusterAddrs) > 0, spawn); n > 1 {
		return usagef("--redis, --cluster and --spawn are mutually exclusive")
	}
	// Reject output paths we cannot write before spending time measuring.
	if err := checkWritable(out); err != nil {
		return err
	}

	target, err := bench.Open(ctx, spec)
	if err != nil {
		return err
	}
	defer target.Close()
	var prog bench.Progress
	if f, ok := stderr.(*os.File); ok && !noProgress && term.IsTerminal(int(f.Fd())) {
		var stop func()
		prog, stop = progressBar(stderr)
		defer stop()
	}
	rep, err := bench.Run(ctx, target, factories, cfg, prog)
	if err != nil {
		return err
	}
	return write(rep, out, stdout)
}

func runMerge(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("lockbench merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var out outputs
	out.register(fs)
	// Flags may come after the files: parse, collect positionals, repeat.
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintln(stdout, "usage: lockbench merge [--json file] [--html file] [--bench-format] a.json b.json ...")
				fs.SetOutput(stdout)
				fs.PrintDefaults()
				return err
			}
			return usageError{err}
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) == 0 {
		return usagef("merge: give the JSON reports to merge")
	}
	if err := checkWritable(out); err != nil {
		return err
	}
	var reps []*bench.Report
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		r, err := bench.ReadJSON(f)
		_ = f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		reps = append(reps, r)
	}
	merged, err := bench.Merge(reps...)
	if err != nil {
		return err
	}
	return write(merged, out, stdout)
}

func write(rep *bench.Report, out outputs, stdout io.Writer) error {
	if out.json != "" {
		if err := writeFile(out.json, stdout, rep.WriteJSON); err != nil {
			return err
		}
	}
	if out.html != "" {
		if err := writeFile(out.html, stdout, rep.WriteHTML); err != nil {
			return err
		}
	}
	switch {
	case out.benchFmt:
		return rep.WriteBench(stdout)
	case out.json == "-":
		return nil
	}
	return rep.WriteText(stdout)
}

func writeFile(name string, stdout io.Writer, fn func(io.Writer) error) error {
	if name == "-" {
		return fn(stdout)
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

func checkWritable(out outputs) error {
	for _, name := range []string{out.json, out.html} {
		if name == "" || name == "-" {
			continue
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		_ = f.Close()
	}
	return nil
}

func selectImpls(list string) ([]bench.Factory, error) {
	all := adapters.All()
	if list == "" || list == "all" {
		return all, nil
	}
	var out []bench.Factory
	for _, name := range splitList(list) {
		found := false
		for _, f := range all {
			if f.Name == name {
				out = append(out, f)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("--impl: unknown implementation %q (have %s)", name, strings.Join(implNames(), ", "))
		}
	}
	return out, nil
}

func implNames() []string {
	var names []string
	for _, f := range adapters.All() {
		names = append(names, f.Name)
	}
	return names
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func boolCount(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "usage: lockbench [flags]            measure locks (embedded miniredis unless --redis, --cluster or --spawn)")
	fmt.Fprintln(w, "       lockbench merge [flags] a.json b.json ...   merge JSON reports")
	fmt.Fprintln(w, "       lockbench lab [flags]        safety lab: holder processes paused, killed, and Redis restarted (lockbench lab -h)")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// progressBar draws one line on a terminal, rewritten in place: at every
// step, and every half second in between so that long phases show time
// passing. stop erases it and ends the redrawing.
func progressBar(w io.Writer) (prog bench.Progress, stop func()) {
	start := time.Now()
	var mu sync.Mutex
	done, total, label := 0, 0, ""
	draw := func() { // mu held
		if total <= 0 {
			return
		}
		const width = 30
		n := min(done, total) * width / total
		line := fmt.Sprintf("\r[%s%s] %3d%% %5.1fs %s", strings.Repeat("=", n), strings.Repeat(" ", width-n),
			100*min(done, total)/total, time.Since(start).Seconds(), label)
		if len(line) > 100 {
			line = line[:100]
		}
		fmt.Fprintf(w, "%-100s", line)
	}
	quit, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				mu.Lock()
				draw()
				mu.Unlock()
			}
		}
	}()
	prog = func(d, t int, l string) {
		mu.Lock()
		defer mu.Unlock()
		done, total, label = d, t, l
		draw()
	}
	stop = func() {
		close(quit)
		<-exited
		fmt.Fprint(w, "\r"+strings.Repeat(" ", 101)+"\r")
	}
	return prog, stop
}

// runLab is "lockbench lab": the safety lab with real processes and real
// faults against a spawned redis-server, or, with --check, the checker
// run again on a saved run's histories.
func runLab(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lockbench lab", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := lab.Config{}
	impls := fs.String("impl", "safelock,safelock-fair,redislock,redsync,rueidislock,minimal,naive", "implementations to put through the faults (failover adds safelock-ack: safelock WithReplicaAck)")
	resources := fs.String("resources", "sql,redis", "protected resources, a scenario each: sql (a SQLite row, fenced by safelock/fence Table.Update), redis (a key on a server of its own, fenced by fence.SetScript)")
	faults := fs.String("faults", "pause,crash,restart,failover", "fault kinds, a scenario each: pause, crash, restart, failover (a primary killed right after an acquire its replica missed; safelock also runs WithReplicaAck)")
	fs.IntVar(&cfg.Processes, "processes", 4, "holder processes per scenario")
	fs.DurationVar(&cfg.Duration, "duration", 5*time.Second, "length of each scenario")
	fs.DurationVar(&cfg.TTL, "ttl", 100*time.Millisecond, "lock TTL")
	fs.DurationVar(&cfg.Hold, "hold", 20*time.Millisecond, "time in the critical section between the read and the write")
	fs.DurationVar(&cfg.FailoverHold, "failover-hold", 300*time.Millisecond, "--hold in failover scenarios: a double grant shows only when a section outlasts the failover and the reconnection")
	fs.DurationVar(&cfg.Pause, "pause", 400*time.Millisecond, "how long a paused holder stays stopped (longer than --ttl)")
	fs.DurationVar(&cfg.Every, "every", 700*time.Millisecond, "normal running between the end of one fault and the next")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the fault schedule (which kind first, which holder)")
	jsonOut := fs.String("json", "", "write the result with every raw history as JSON to `file` (- for stdout)")
	htmlOut := fs.String("html", "", "write the table and a timeline of grants, writes and faults per scenario as HTML to `file`")
	check := fs.String("check", "", "run the checker again on the histories of a saved JSON `file` instead of a new run")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "usage: lockbench lab [flags]   (needs redis-server on PATH)")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("lab: unexpected argument %q", fs.Arg(0))
	}
	var res *lab.Result
	if *check != "" {
		f, err := os.Open(*check)
		if err != nil {
			return err
		}
		defer f.Close()
		res = &lab.Result{}
		if err := json.NewDecoder(f).Decode(res); err != nil {
			return fmt.Errorf("%s: %w", *check, err)
		}
		for i := range res.Scenarios {
			res.Scenarios[i].Verdict = lab.Check(res.Scenarios[i].History)
		}
	} else {
		cfg.Impls = splitList(*impls)
		cfg.Faults = splitList(*faults)
		cfg.Resources = splitList(*resources)
		cfg.Progress = func(s string) { fmt.Fprintln(stderr, s) }
		var err error
		if res, err = lab.Run(ctx, cfg); err != nil {
			return err
		}
	}
	if *htmlOut != "" {
		if err := writeFile(*htmlOut, stdout, res.WriteHTML); err != nil {
			return err
		}
	}
	if *jsonOut != "" {
		if err := writeFile(*jsonOut, stdout, res.WriteJSON); err != nil {
			return err
		}
		if *jsonOut == "-" {
			return nil
		}
	}
	return res.WriteText(stdout)
}
