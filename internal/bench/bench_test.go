package bench

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

func TestHistMergeEqualsOneHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	all := NewHist()
	workers := []*Hist{NewHist(), NewHist(), NewHist()}
	for i := 0; i < 30000; i++ {
		d := time.Duration(rng.ExpFloat64() * float64(200*time.Microsecond))
		all.Record(d)
		workers[i%3].Record(d)
	}
	workers[1].Fail("timeout")
	merged := mergeHists(workers)
	if merged.Count() != all.Count() {
		t.Fatalf("merged count %d, want %d", merged.Count(), all.Count())
	}
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999, 1} {
		if merged.Quantile(q) != all.Quantile(q) {
			t.Errorf("q%v: merged %v, single %v", q, merged.Quantile(q), all.Quantile(q))
		}
	}
	if merged.Errors() != 1 {
		t.Errorf("merged errors %d, want 1", merged.Errors())
	}
}

func TestOpRoundTripKeepsDistribution(t *testing.T) {
	h := NewHist()
	for i := 1; i <= 1000; i++ {
		h.Record(time.Duration(i) * time.Microsecond)
	}
	h.Fail("connection")
	h.Record(-5)            // clamped, not lost
	h.Record(2 * time.Hour) // clamped, not lost
	o := h.Op()
	back, err := o.Hist()
	if err != nil {
		t.Fatal(err)
	}
	if back.Count() != 1002 || back.Errors() != 1 {
		t.Fatalf("count %d errors %d, want 1002 and 1", back.Count(), back.Errors())
	}
	if got := back.Quantile(0.5); got != time.Duration(o.P50) {
		t.Errorf("p50 after decode %v, summary says %v", got, time.Duration(o.P50))
	}
	if p50 := time.Duration(o.P50); p50 < 495*time.Microsecond || p50 > 505*time.Microsecond {
		t.Errorf("p50 %v, want about 500µs", p50)
	}
	if _, err := (&Op{HDR: "not base64!"}).Hist(); err == nil {
		t.Error("decoding garbage succeeded")
	}
}

func TestJain(t *testing.T) {
	cases := []struct {
		x    []int64
		want float64
	}{
		{[]int64{5, 5, 5, 5}, 1},
		{[]int64{8, 0, 0, 0}, 0.25},
		{[]int64{1, 2, 3}, 36.0 / 42},
		{nil, 0},
		{[]int64{0, 0}, 0},
	}
	for _, c := range cases {
		if got := Jain(c.x); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Jain(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestAdviceArithmetic(t *testing.T) {
	ms := int64(time.Millisecond)
	rep := &Report{
		Config: Config{Hold: 50 * time.Millisecond, HoldGiven: true, Drift: 0.01, DriftFixed: 2 * time.Millisecond},
		Latency: []*LatencyRes{
			{Impl: "a", Acquire: &Op{Count: 1, P999: 3 * ms}, Renew: &Op{Count: 1, P999: 4 * ms}},
			{Impl: "b", Acquire: &Op{Count: 1, P999: 2 * ms}, Renew: &Op{Count: 1, P999: 8 * ms}},
		},
		Pauses: &Op{Count: 10, Max: 20 * ms},
	}
	// The advice is for the implementation being chosen, not the worst
	// one measured: "a" when no AdviseFor names one and safelock is absent.
	if a := Advise(rep); a.For != "a" || a.RenewTail != 4*ms {
		t.Errorf("advice for %q with renew tail %v, want a and 4ms", a.For, time.Duration(a.RenewTail))
	}
	rep.Config.AdviseFor = "b"
	a := Advise(rep)
	if a.For != "b" || a.RenewTail != 8*ms || !strings.Contains(a.RenewFrom, "b") || a.AcquireTail != 2*ms {
		t.Errorf("advice for %q: renew tail %v from %q, acquire tail %v; want b, 8ms from b, 2ms", a.For, a.RenewTail, a.RenewFrom, a.AcquireTail)
	}
	// (8 + 20 + 2) ms / (1/3 - 0.01) = 92.78 ms
	wantW := int64(float64(30*ms) / (1.0/3 - 0.01))
	if a.MinWatchdog != wantW {
		t.Errorf("min watchdog TTL %v, want %v", time.Duration(a.MinWatchdog), time.Duration(wantW))
	}
	// 2 x 92.78 ms rounds up to 200 ms; renew every 66.67 ms.
	if a.TTL != 200*ms || a.RenewEvery != 200*ms/3 {
		t.Errorf("TTL %v renew %v, want 200ms and 66.67ms", time.Duration(a.TTL), time.Duration(a.RenewEvery))
	}
	// (2 + 50 + 20 + 2) ms / 0.99 = 74.75 ms -> x2 = 149.5 -> 200 ms
	if want := int64(float64(74*ms) / 0.99); a.MinNoRenew != want {
		t.Errorf("min no-renew TTL %v, want %v", time.Duration(a.MinNoRenew), time.Duration(want))
	}
	if a.TTLNoRenew != 200*ms {
		t.Errorf("no-renew TTL %v, want 200ms", time.Duration(a.TTLNoRenew))
	}
	if len(a.Reasoning) < 5 || !strings.Contains(strings.Join(a.Reasoning, "\n"), "92.8ms") || !strings.Contains(a.Reasoning[0], "for b") {
		t.Errorf("reasoning does not show the arithmetic:\n%s", strings.Join(a.Reasoning, "\n"))
	}
	// safelock, when measured, is the default.
	rep.Config.AdviseFor = ""
	rep.Latency = append(rep.Latency, &LatencyRes{Impl: "safelock", Acquire: &Op{Count: 1, P999: ms}, Renew: &Op{Count: 1, P999: ms}})
	if a := Advise(rep); a.For != "safelock" || a.RenewTail != ms {
		t.Errorf("advice for %q with renew tail %v, want safelock and 1ms", a.For, time.Duration(a.RenewTail))
	}
	// A declared pause overrides the observed one.
	rep.Config.AppPause = 100 * time.Millisecond
	if a := Advise(rep); a.Pause != 100*ms || a.PauseFrom != "--pause" {
		t.Errorf("pause %v from %q, want 100ms from --pause", time.Duration(a.Pause), a.PauseFrom)
	}
}

func TestNiceCeil(t *testing.T) {
	ms := int64(time.Millisecond)
	for in, want := range map[int64]int64{0: ms, ms: ms, ms + 1: 2 * ms, 3 * ms: 5 * ms, 6 * ms: 10 * ms, 150 * ms: 200 * ms, 2100 * ms: 5000 * ms} {
		if got := niceCeil(in); got != want {
			t.Errorf("niceCeil(%v) = %v, want %v", time.Duration(in), time.Duration(got), time.Duration(want))
		}
	}
}

func TestFmtDur(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0", 999: "999ns", 1500: "1.5µs", 25300 * time.Nanosecond: "25.3µs", 999500 * time.Microsecond: "1000ms",
		1234567: "1.23ms", 2 * time.Second: "2s", -3 * time.Millisecond: "-3ms",
	} {
		if got := fmtDur(d); got != want {
			t.Errorf("fmtDur(%d) = %q, want %q", d, got, want)
		}
	}
}

func TestOverlaps(t *testing.T) {
	t0 := time.Now()
	at := func(a, b int) section {
		return section{t0.Add(time.Duration(a) * time.Millisecond), t0.Add(time.Duration(b) * time.Millisecond)}
	}
	// [0,10) overlaps [5,20) and [8,9); [20,30) touches [5,20) only at its end.
	if got := overlaps([]section{at(0, 10), at(5, 20), at(8, 9), at(20, 30)}); got != 3 {
		t.Errorf("overlapping pairs %d, want 3", got)
	}
}

func TestResourceFence(t *testing.T) {
	ctx := context.Background()
	r := &resource{fenced: true}
	steps := []struct {
		order           int64
		stale, accepted bool
	}{{1, false, true}, {3, false, true}, {2, true, false}, {4, false, true}, {3, true, false}}
	for _, s := range steps {
		stale, acc, err := r.write(ctx, s.order, nil)
		if err != nil || stale != s.stale || acc != s.accepted {
			t.Errorf("write %d: stale %v accepted %v err %v, want %v %v", s.order, stale, acc, err, s.stale, s.accepted)
		}
	}
	open := &resource{}
	_, _, _ = open.write(ctx, 5, nil)
	if stale, acc, _ := open.write(ctx, 2, nil); !stale || !acc {
		t.Errorf("unfenced resource: stale %v accepted %v, want both", stale, acc)
	}
}

func TestRedactAndParse(t *testing.T) {
	for raw, want := range map[string]string{
		"redis://user:s3cret@host:6379/1": "redis://user:xxxxx@host:6379/1",
		"rediss://:s3cret@host:6380":      "rediss://:xxxxx@host:6380",
		"redis://s3cret@host:1":           "redis://xxxxx@host:1",
		"redis://host:6379":               "redis://host:6379",
		"redis://u:s3c@ret@host:1/0":      "redis://u:xxxxx@host:1/0",
		"redis://u:s3cret@host:notaport":  "redis://u:xxxxx@host:notaport",
	} {
		if got := RedactURL(raw); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", raw, got, want)
		}
	}
	bad := []string{
		"redis://u:s3cret@host:notaport",
		"http://u:s3cret@host:1",
		"redis://u:s3cret@",
		"redis://u:s3cret@host:1/notadb",
		"redis://u:s3cret@[::1",
		"nocolon",
		":6379",
	}
	for _, raw := range bad {
		_, err := ParseEndpoint(raw)
		if err == nil {
			t.Errorf("ParseEndpoint(%q) succeeded", raw)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("error for %q shows the password: %v", raw, err)
		}
	}
	e, err := ParseEndpoint("rediss://alice:s3cret@example.com:6380/2")
	if err != nil {
		t.Fatal(err)
	}
	if e.Addr != "example.com:6380" || e.Username != "alice" || e.Password != "s3cret" || e.DB != 2 || e.TLS == nil {
		t.Errorf("parsed %+v", e)
	}
	if s := e.String(); strings.Contains(s, "s3cret") || !strings.HasPrefix(s, "rediss://alice:xxxxx@") {
		t.Errorf("Endpoint.String() = %q", s)
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	m.RequireUserAuth("alice", "right")
	_, err := Open(ctx, Spec{Redis: []string{"redis://alice:wrongpass@" + m.Addr()}})
	if err == nil || !strings.Contains(err.Error(), "authentication failed") || strings.Contains(err.Error(), "wrongpass") {
		t.Errorf("wrong password: %v", err)
	}
	_, err = Open(ctx, Spec{Redis: []string{"redis://" + m.Addr()}})
	if err == nil || !strings.Contains(err.Error(), "authentication required") {
		t.Errorf("no password: %v", err)
	}
	tg, err := Open(ctx, Spec{Redis: []string{"redis://alice:right@" + m.Addr()}})
	if err != nil {
		t.Fatalf("right password: %v", err)
	}
	if strings.Contains(tg.Describe(), "right@") {
		t.Errorf("Describe shows the password: %s", tg.Describe())
	}
	tg.Close()

	addr := closedPort(t)
	_, err = Open(ctx, Spec{Redis: []string{"redis://" + addr}})
	if err == nil || !strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("closed port: %v", err)
	}
	_, err = Open(ctx, Spec{Redis: []string{"redis://x"}, Spawn: true})
	if err == nil || !strings.Contains(err.Error(), "mutually exclusive") {
		t.Errorf("--redis with --spawn: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	bad := map[string]func(*Config){
		"--clients":       func(c *Config) { c.Clients = 0 },
		"--hold":          func(c *Config) { c.Hold = c.TTL },
		"--safety-pause":  func(c *Config) { c.SafetyPause = c.SafetyTTL },
		"--workload":      func(c *Config) { c.Workloads = []string{"latnecy"} },
		"--keys":          func(c *Config) { c.Keys = c.Clients + 1 },
		"--hold-dist":     func(c *Config) { c.HoldDist = "pareto" },
		"--ttl":           func(c *Config) { c.TTL = time.Microsecond },
		"--safety-client": func(c *Config) { c.SafetyClients = 1 },
		"--drift":         func(c *Config) { c.Drift = 0.5 },
	}
	for flag, mutate := range bad {
		c := DefaultConfig()
		mutate(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), flag) {
			t.Errorf("%s: got %v, want an error naming the flag", flag, err)
		}
	}
	c := DefaultConfig()
	c.Clients = 12
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := c.Sweep; len(got) != 5 || got[0] != 1 || got[3] != 8 || got[4] != 12 {
		t.Errorf("sweep %v, want [1 2 4 8 12]", got)
	}
}

func TestCause(t *testing.T) {
	for err, want := range map[error]string{
		ErrNotAcquired: "not_acquired",
		errors.Join(ErrLeaseLost, errors.New("x")): "lease_lost",
		context.DeadlineExceeded:                   "timeout",
		errors.New("ERR unknown command 'DELEX'"):  "redis_err",
		errors.New("dial tcp: connection refused"): "connection",
		errors.New("something else"):               "other",
	} {
		if got := Cause(err); got != want {
			t.Errorf("Cause(%v) = %q, want %q", err, got, want)
		}
	}
}

func TestHTMLAndBenchOutput(t *testing.T) {
	rep := sampleReport()
	var b bytes.Buffer
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, banned := range []string{"<script", "src=", "href=", "url(", "@import", "<link", "<iframe", "<img"} {
		if strings.Contains(strings.ToLower(page), banned) {
			t.Errorf("HTML report contains %q: it must load nothing", banned)
		}
	}
	if n := strings.Count(page, "<svg"); n != 3 {
		t.Errorf("%d plots, want 3 (CDF, throughput, wait)", n)
	}
	if !strings.Contains(page, "<polyline") || !strings.Contains(page, "naive acquire") {
		t.Error("plots have no lines or no legend")
	}
	if strings.Contains(page, "s3cret") {
		t.Error("HTML shows a password")
	}
	b.Reset()
	if err := rep.WriteBench(&b); err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		lines++
		f := strings.Fields(line)
		// name, iterations, then value-unit pairs
		if len(f) < 4 || len(f)%2 != 0 {
			t.Errorf("malformed benchmark line %q", line)
		}
	}
	if lines < 5 {
		t.Errorf("%d benchmark lines, want the baseline, latency and contention figures:\n%s", lines, b.String())
	}
}

// sampleReport builds a small report by hand, with real histograms.
func sampleReport() *Report {
	mk := func(base time.Duration, n int) *Op {
		h := NewHist()
		for i := 0; i < n; i++ {
			h.Record(base + time.Duration(i)*time.Microsecond)
		}
		return h.Op()
	}
	rep := &Report{Schema: "lockbench", Version: SchemaVersion, Config: DefaultConfig(),
		Sources: []Source{{Target: "redis redis://u:xxxxx@h:1", Kind: KindRedis, Server: "redis 7"}},
		Base:    &Baseline{Ping: mk(30*time.Microsecond, 100), Set: mk(31*time.Microsecond, 100), RTT: 80000, SetClients: 50, SetOps: 1000, SetRate: 40000},
	}
	rep.Latency = []*LatencyRes{{Impl: "naive", Acquire: mk(60*time.Microsecond, 100), Release: mk(30*time.Microsecond, 100), Renew: mk(30*time.Microsecond, 100), Cycle: mk(90*time.Microsecond, 100), CommandsPerCycle: 4}}
	for _, n := range []int{1, 2, 4} {
		c := &ContendRes{Impl: "naive", Mode: "closed", Clients: n, RunClients: n, Keys: 1, Duration: int64(time.Second), Grants: int64(100 * n), GrantsPerSec: float64(100 * n),
			Wait: mk(time.Duration(n)*time.Millisecond, 50), Handoff: mk(100*time.Microsecond, 10), Hold: mk(time.Millisecond, 10), Release: mk(30*time.Microsecond, 10), Commands: int64(300 * n)}
		for i := 0; i < n; i++ {
			c.PerClient = append(c.PerClient, int64(100))
			c.PerClientP99 = append(c.PerClientP99, int64(time.Millisecond))
		}
		c.derive()
		rep.Contend = append(rep.Contend, c)
	}
	rep.Advice = Advise(rep)
	return rep
}

func TestMergeSample(t *testing.T) {
	a, b := sampleReport(), sampleReport()
	b.Contend[2].PerClient = []int64{400, 0, 0, 0}
	b.Contend[2].derive()
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Sources) != 2 || len(m.Contend) != 3 || len(m.Latency) != 1 {
		t.Fatalf("merged shape: %d sources, %d contention, %d latency", len(m.Sources), len(m.Contend), len(m.Latency))
	}
	if m.Latency[0].Acquire.Count != 200 || m.Latency[0].Acquire.P50 != a.Latency[0].Acquire.P50 {
		t.Errorf("merged acquire: count %d p50 %d", m.Latency[0].Acquire.Count, m.Latency[0].Acquire.P50)
	}
	c := m.Contend[2]
	if c.Clients != 8 || c.RunClients != 4 || c.GrantsPerSec != 800 || len(c.PerClient) != 8 || c.Starved != 3 {
		t.Errorf("merged contention: %+v", c)
	}
	if want := Jain([]int64{100, 100, 100, 100, 400, 0, 0, 0}); c.Fairness != want {
		t.Errorf("merged fairness %v, want %v (over all clients)", c.Fairness, want)
	}
	if m.Base.SetRate != 80000 {
		t.Errorf("merged SET rate %v, want the sum 80000", m.Base.SetRate)
	}
	if _, err := Merge(); err == nil {
		t.Error("merging nothing succeeded")
	}
}

// BenchmarkHistRecord shows what recording one sample costs a worker:
// a few nanoseconds against a round trip of tens of microseconds.
func BenchmarkHistRecord(b *testing.B) {
	h := NewHist()
	d := 25 * time.Microsecond
	for i := 0; i < b.N; i++ {
		h.Record(d + time.Duration(i&1023))
	}
}
