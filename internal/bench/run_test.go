package bench_test

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/locklint/locklint/internal/bench/adapters"
	"github.com/locklint/locklint/internal/redistest"
	"go.uber.org/goleak"
)

// quick is a configuration for tests: every workload, a fraction of a
// second each.
func quick(workloads ...string) bench.Config {
	c := bench.DefaultConfig()
	c.Workloads = workloads
	c.Ops = 30
	c.Clients = 2
	c.Duration = 60 * time.Millisecond
	c.SetClients = 4
	c.SetDuration = 30 * time.Millisecond
	c.WatchdogTTL = 100 * time.Millisecond // well above stalls under -race
	c.WatchdogDuration = 120 * time.Millisecond
	c.SafetyDuration = 300 * time.Millisecond
	// A TTL well above scheduling stalls under -race: the workload needs
	// pauses past the TTL, not grants that arrive already expired.
	c.SafetyTTL = 50 * time.Millisecond
	c.SafetyPause = 120 * time.Millisecond
	return c
}

func impls(t *testing.T, names ...string) []bench.Factory {
	t.Helper()
	var out []bench.Factory
	for _, f := range adapters.All() {
		for _, n := range names {
			if f.Name == n {
				out = append(out, f)
			}
		}
	}
	if len(out) != len(names) {
		t.Fatalf("unknown implementation among %v", names)
	}
	return out
}

func open(t *testing.T, spec bench.Spec) *bench.Target {
	t.Helper()
	tg, err := bench.Open(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tg.Close)
	return tg
}

func run(t *testing.T, tg *bench.Target, fs []bench.Factory, cfg bench.Config) *bench.Report {
	t.Helper()
	rep, err := bench.Run(context.Background(), tg, fs, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestEmbeddedRunJSONRoundTripAndMerge(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tg, err := bench.Open(context.Background(), bench.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	// safelock is left out here: see TestSafetyOnRedisServer.
	rep, err := bench.Run(context.Background(), tg, impls(t, "naive", "redislock"), quick("latency", "contention", "safety"), nil)
	tg.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sources[0].Kind != bench.KindEmbedded || !strings.Contains(rep.Sources[0].Note, "embedded") {
		t.Errorf("report does not say the figures come from the embedded server: %+v", rep.Sources[0])
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := bench.ReadJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Version != bench.SchemaVersion || len(back.Latency) != 2 || len(back.Contend) != len(rep.Contend) || len(back.Safety) != len(rep.Safety) {
		t.Fatalf("round trip lost sections")
	}
	if back.Latency[0].Acquire.P99 != rep.Latency[0].Acquire.P99 || back.Latency[0].Acquire.HDR == "" {
		t.Errorf("round trip changed the acquire distribution")
	}
	m, err := bench.Merge(rep, back)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Latency[0].Acquire.Count, 2*rep.Latency[0].Acquire.Count; got != want {
		t.Errorf("merged acquire count %d, want %d", got, want)
	}
	if m.Latency[0].Acquire.P50 != rep.Latency[0].Acquire.P50 {
		t.Errorf("merging a run with itself moved p50: %d vs %d", m.Latency[0].Acquire.P50, rep.Latency[0].Acquire.P50)
	}
	for i, c := range m.Contend {
		if c.Grants != 2*rep.Contend[i].Grants || len(c.PerClient) != 2*len(rep.Contend[i].PerClient) {
			t.Errorf("merged contention %s/%d: grants %d, clients %d", c.Impl, c.RunClients, c.Grants, len(c.PerClient))
		}
	}
	if _, err := bench.ReadJSON(strings.NewReader(`{"schema":"lockbench","version":99}`)); err == nil {
		t.Error("read a report of an unknown version")
	}
}

func TestLatencyOnRedisServer(t *testing.T) {
	srv := redistest.Start(t)
	tg := open(t, bench.Spec{Redis: []string{srv.URL()}})
	rep := run(t, tg, adapters.All(), quick("latency"))
	if rep.Base.RTT <= 0 || rep.Base.Ping.Count != 30 || rep.Base.SetRate <= 0 { // one PING per round of all implementations
		t.Fatalf("baseline: %+v", rep.Base)
	}
	if len(rep.Latency) != len(adapters.All()) {
		t.Fatalf("measured %d implementations, want %d (skipped: %v)", len(rep.Latency), len(adapters.All()), rep.Skipped)
	}
	for _, l := range rep.Latency {
		if l.Acquire.Count != 30 || l.Release.Count != 30 || len(l.Acquire.Errors) > 0 {
			t.Errorf("%s: acquire %d (errors %v), release %d", l.Impl, l.Acquire.Count, l.Acquire.Errors, l.Release.Count)
		}
		// Nothing takes a lock in less than half a round trip.
		if l.Acquire.P50 < rep.Base.RTT/2 || l.Cycle.P50 < l.Acquire.P50 {
			t.Errorf("%s: acquire p50 %d, cycle p50 %d, RTT %d", l.Impl, l.Acquire.P50, l.Cycle.P50, rep.Base.RTT)
		}
		if l.CommandsPerCycle < 2 {
			t.Errorf("%s: %.2f commands per acquire+renew+release", l.Impl, l.CommandsPerCycle)
		}
	}
	for _, l := range rep.Latency {
		// SETNX, PEXPIRE, PEXPIRE (renew), DEL: counted by the hook.
		if l.Impl == "naive" && (l.CommandsPerCycle != 4 || l.RoundTripsPerCycle != 4) {
			t.Errorf("naive: %.2f commands, %.2f round trips per cycle, want exactly 4", l.CommandsPerCycle, l.RoundTripsPerCycle)
		}
		// SET NX PX, EVALSHA (renew), EVALSHA (release); the first EVALSHA
		// of each script is answered NOSCRIPT and sent again as EVAL.
		if l.Impl == "minimal" && (l.CommandsPerCycle < 3 || l.CommandsPerCycle > 3+4.0/30) {
			t.Errorf("minimal: %.2f commands, %.2f round trips per cycle, want 3 (and the scripts' first loads)", l.CommandsPerCycle, l.RoundTripsPerCycle)
		}
		if l.Impl == "safelock" && (l.RenewMargin == nil || l.RenewMargin.Count == 0) {
			t.Errorf("safelock: no renew margin measured: %+v", l.RenewMargin)
		}
	}
	if rep.Advice == nil || rep.Advice.TTL <= 0 || rep.Advice.RenewEvery != rep.Advice.TTL/3 {
		t.Errorf("advice: %+v", rep.Advice)
	}
	wantClean(t, srv)
}

// wantClean checks that a run left no keys behind on srv.
func wantClean(t *testing.T, srv *redistest.Server) {
	t.Helper()
	ctx := context.Background()
	keys, err := srv.Client().Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) > 0 {
		t.Errorf("the run left %d keys, e.g. %q", len(keys), keys[0])
	}
}

func TestSafetyOnRedisServer(t *testing.T) {
	srv := redistest.Start(t)
	tg := open(t, bench.Spec{Redis: []string{srv.URL()}})
	cfg := quick("safety")
	cfg.SafetyDuration = 1500 * time.Millisecond
	rep := run(t, tg, impls(t, "naive", "safelock"), cfg)
	var naive, bare, fenced *bench.SafetyRes
	for _, s := range rep.Safety {
		switch {
		case s.Impl == "naive":
			naive = s
		case s.Impl == "safelock" && s.Fenced:
			fenced = s
		case s.Impl == "safelock":
			bare = s
		}
	}
	if naive == nil || bare == nil || fenced == nil {
		t.Fatalf("missing scenarios: %+v", rep.Safety)
	}
	if naive.Paused == 0 || naive.StaleAccepted == 0 {
		t.Errorf("naive: %d paused holders, %d stale writes accepted; want both above zero", naive.Paused, naive.StaleAccepted)
	}
	if bare.StaleAccepted == 0 {
		t.Errorf("safelock without a fence check: no stale write accepted; the pause did not bite (%+v)", bare)
	}
	if fenced.StaleAccepted != 0 {
		t.Errorf("safelock with the fence enforced: %d stale writes accepted, want 0", fenced.StaleAccepted)
	}
	if fenced.StaleRejected == 0 {
		t.Errorf("safelock with the fence enforced: no stale write was even attempted, so zero accepted proves nothing (%+v)", fenced)
	}
	wantClean(t, srv)
}

func TestRedlockSkipsSingleNodeLibraries(t *testing.T) {
	nodes := redistest.StartN(t, 3)
	var urls []string
	for _, n := range nodes {
		urls = append(urls, n.URL())
	}
	tg := open(t, bench.Spec{Redis: urls})
	if tg.Kind != bench.KindRedlock {
		t.Fatalf("kind %s, want redlock", tg.Kind)
	}
	cfg := quick("latency")
	cfg.Ops = 10
	rep := run(t, tg, adapters.All(), cfg)
	var measured []string
	for _, l := range rep.Latency {
		measured = append(measured, l.Impl)
		if l.Acquire.Count != 10 {
			t.Errorf("%s: %d acquires (errors %v)", l.Impl, l.Acquire.Count, l.Acquire.Errors)
		}
	}
	if strings.Join(measured, ",") != "safelock,redsync" {
		t.Errorf("measured %v on Redlock, want safelock and redsync; skipped %v", measured, rep.Skipped)
	}
}

func TestClusterTarget(t *testing.T) {
	nodes := redistest.StartCluster(t)
	tg := open(t, bench.Spec{Cluster: []string{strings.Join(redistest.ClusterAddrs(nodes), ",")}})
	cfg := quick("latency")
	cfg.Ops = 10
	rep := run(t, tg, adapters.All(), cfg)
	if len(rep.Latency) != len(adapters.All()) {
		t.Errorf("measured %d implementations on the cluster, want all %d (skipped %v)", len(rep.Latency), len(adapters.All()), rep.Skipped)
	}
	for _, l := range rep.Latency {
		if l.Acquire.Count != 10 || l.Release.Count != 10 {
			t.Errorf("%s on cluster: acquire %d release %d, errors %v %v", l.Impl, l.Acquire.Count, l.Release.Count, l.Acquire.Errors, l.Release.Errors)
		}
	}
	for _, n := range nodes {
		wantClean(t, n)
	}
	single := redistest.Start(t)
	_, err := bench.Open(context.Background(), bench.Spec{Cluster: []string{single.Addr()}})
	if err == nil || !strings.Contains(err.Error(), "not a Redis Cluster node") {
		t.Errorf("--cluster on a plain server: %v", err)
	}
}

func TestSpawn(t *testing.T) {
	redistest.Binary(t) // skips (or fails in CI) without redis-server
	tg, err := bench.Open(context.Background(), bench.Spec{Spawn: true})
	if err != nil {
		t.Fatal(err)
	}
	addr := tg.Endpoints[0].Addr
	cfg := quick("latency")
	cfg.Ops = 10
	rep, err := bench.Run(context.Background(), tg, impls(t, "naive"), cfg, nil)
	tg.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sources[0].Kind != bench.KindSpawned || !strings.HasPrefix(rep.Sources[0].Server, "redis ") {
		t.Errorf("source %+v", rep.Sources[0])
	}
	if rep.Latency[0].Acquire.Count != 10 {
		t.Errorf("acquires %d", rep.Latency[0].Acquire.Count)
	}
	// Close stops the spawned server.
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		_ = c.Close()
		t.Errorf("spawned server at %s still accepts connections after Close", addr)
	}
}

func TestLongHoldsAreRenewed(t *testing.T) {
	tg := open(t, bench.Spec{})
	cfg := quick("contention")
	cfg.Clients = 1
	cfg.TTL = 90 * time.Millisecond
	cfg.Hold = 80 * time.Millisecond // two renews, at 30 and 60 ms
	cfg.Duration = 200 * time.Millisecond
	rep := run(t, tg, impls(t, "naive"), cfg)
	c := rep.Contend[0]
	if c.Grants == 0 || c.RenewMargin == nil || c.RenewMargin.Count < c.Grants {
		t.Fatalf("grants %d, renew margin %+v: want at least one renew per hold", c.Grants, c.RenewMargin)
	}
	// The histogram keeps two significant digits: allow 1% above the TTL.
	if c.RenewMargin.Max > int64(cfg.TTL)*101/100 || c.RenewMargin.Min <= 0 {
		t.Errorf("renew margin %d..%d ns outside (0, TTL]", c.RenewMargin.Min, c.RenewMargin.Max)
	}
}
