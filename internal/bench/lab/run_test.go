package lab

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestMain lets the lab re-execute this test binary as a holder process.
func TestMain(m *testing.M) {
	MaybeWorker()
	os.Exit(m.Run())
}

func needRedis(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("LOCKLINT_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server not on PATH")
		}
		t.Skip("redis-server not on PATH")
	}
}

func labConfig(faults ...string) Config {
	return Config{
		Impls: []string{"safelock"}, Processes: 3, Duration: 2500 * time.Millisecond,
		TTL: 100 * time.Millisecond, Hold: 20 * time.Millisecond, Pause: 400 * time.Millisecond,
		Faults: faults, Resources: []string{resourceSQL}, Every: 600 * time.Millisecond, Seed: 1,
	}
}

func scenarios(t *testing.T, res *Result) (unfenced, fenced Scenario) {
	t.Helper()
	if len(res.Scenarios) != 2 {
		t.Fatalf("%d scenarios, want safelock without and with the fence", len(res.Scenarios))
	}
	for _, sc := range res.Scenarios {
		t.Logf("%s fenced=%t faults=%d verdict=%+v errors=%v", sc.History.Impl, sc.History.Fenced, len(sc.History.Faults), sc.Verdict, sc.Errors)
		if sc.Verdict.Accepted == 0 {
			t.Fatalf("%+v: no write accepted", sc.Verdict)
		}
		if sc.History.Fenced {
			fenced = sc
		} else {
			unfenced = sc
		}
	}
	return unfenced, fenced
}

// TestPause: holders stopped (SIGSTOP) inside their critical section past
// the ttl write late. Without the fence checked their writes land over
// their successors' and updates are lost; with safelock's fence checked by
// safelock/fence at the SQL row, none is accepted and none is lost.
func TestPause(t *testing.T) {
	needRedis(t)
	res, err := Run(context.Background(), labConfig(Pause))
	if err != nil {
		t.Fatal(err)
	}
	unfenced, fenced := scenarios(t, res)
	for _, sc := range []Scenario{unfenced, fenced} {
		if len(sc.History.Faults) == 0 {
			t.Fatal("no pause injected")
		}
		for _, r := range sc.Verdict.Recovery {
			if r < 0 {
				t.Errorf("no grant after a pause: %v", sc.Verdict.Recovery)
			}
		}
	}
	if unfenced.Verdict.StaleAccepted == 0 || unfenced.Verdict.LostUpdates == 0 {
		t.Errorf("without the fence: %+v, want stale writes accepted and lost updates", unfenced.Verdict)
	}
	if fenced.Verdict.StaleAccepted != 0 || fenced.Verdict.LostUpdates != 0 || fenced.Verdict.StaleRejected == 0 {
		t.Errorf("with the fence: %+v, want stale writes refused, none accepted, none lost", fenced.Verdict)
	}
}

// TestCrash: holders killed inside their critical section leave the lock
// to expire; the next grant follows, and with the fence nothing stale is
// written.
func TestCrash(t *testing.T) {
	needRedis(t)
	res, err := Run(context.Background(), labConfig(Crash))
	if err != nil {
		t.Fatal(err)
	}
	unfenced, fenced := scenarios(t, res)
	for _, sc := range []Scenario{unfenced, fenced} {
		if len(sc.History.Faults) == 0 || sc.History.Faults[0].Kind != Crash {
			t.Fatalf("faults %+v, want crashes", sc.History.Faults)
		}
		for _, r := range sc.Verdict.Recovery {
			if r < 0 {
				t.Errorf("no grant after a crash: %v", sc.Verdict.Recovery)
			}
		}
	}
	// Without the fence a holder slowed past the ttl by a busy machine can
	// still write late; with it, nothing stale lands.
	if fenced.Verdict.StaleAccepted != 0 || fenced.Verdict.LostUpdates != 0 {
		t.Errorf("with the fence: %+v, want no stale write accepted and no update lost", fenced.Verdict)
	}
}

// TestRestart: redis-server restarted without persistence forgets the
// lock, so a second holder is granted it while the first is inside. With
// safelock's fence checked the first holder's write is refused (the
// fence counter, lost too, restarts above every earlier fence) and no
// update is lost.
func TestRestart(t *testing.T) {
	needRedis(t)
	res, err := Run(context.Background(), labConfig(Restart))
	if err != nil {
		t.Fatal(err)
	}
	unfenced, fenced := scenarios(t, res)
	for _, sc := range []Scenario{unfenced, fenced} {
		if len(sc.History.Faults) == 0 || sc.History.Faults[0].Kind != Restart {
			t.Fatalf("faults %+v, want restarts", sc.History.Faults)
		}
	}
	if fenced.Verdict.StaleAccepted != 0 || fenced.Verdict.LostUpdates != 0 {
		t.Errorf("with the fence: %+v, want no stale write accepted and no update lost", fenced.Verdict)
	}
}

// TestFailover: the primary is killed right after a grant its replica did
// not receive (replication stalled), and the replica promoted. Without
// replica acknowledgement the lock can be granted twice; safelock's fence,
// checked at the row, still lets no stale write in and loses no update;
// with WithReplicaAck the grant never counted, so nothing overlaps.
func TestFailover(t *testing.T) {
	needRedis(t)
	cfg := labConfig(Failover)
	cfg.Duration = 4 * time.Second
	cfg.FailoverHold = 200 * time.Millisecond
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Scenarios) != 4 {
		t.Fatalf("%d scenarios, want safelock and safelock-ack, each without and with the fence", len(res.Scenarios))
	}
	for _, sc := range res.Scenarios {
		h, v := sc.History, sc.Verdict
		t.Logf("%s fenced=%t faults=%d verdict=%+v errors=%v", h.Impl, h.Fenced, len(h.Faults), v, sc.Errors)
		if len(h.Faults) == 0 || h.Faults[0].Kind != Failover {
			t.Fatalf("%s: faults %+v, want failovers", h.Impl, h.Faults)
		}
		if v.Accepted == 0 {
			t.Fatalf("%s: no write accepted", h.Impl)
		}
		switch {
		case h.Fenced && (v.StaleAccepted != 0 || v.LostUpdates != 0):
			t.Errorf("%s with the fence: %+v, want no stale write accepted and no update lost", h.Impl, v)
		case h.Impl == "safelock-ack" && (v.Overlaps != 0 || v.LostUpdates != 0):
			t.Errorf("safelock-ack: %+v, want no double grant to show", v)
		}
	}
}

// TestRedisResource: the same pauses against a Redis key on a server of
// its own, written through safelock/fence's SetScript: without the fence
// the late writes land, with it none is accepted and none is lost.
func TestRedisResource(t *testing.T) {
	needRedis(t)
	cfg := labConfig(Pause)
	cfg.Resources = []string{resourceRedis}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	unfenced, fenced := scenarios(t, res)
	if unfenced.History.Resource != resourceRedis || fenced.History.Resource != resourceRedis {
		t.Fatalf("resources %q, %q", unfenced.History.Resource, fenced.History.Resource)
	}
	if unfenced.Verdict.StaleAccepted == 0 || unfenced.Verdict.LostUpdates == 0 {
		t.Errorf("without the fence: %+v, want stale writes accepted and lost updates", unfenced.Verdict)
	}
	if fenced.Verdict.StaleAccepted != 0 || fenced.Verdict.LostUpdates != 0 || fenced.Verdict.StaleRejected+fenced.Verdict.ClaimsRefused == 0 {
		t.Errorf("with the fence: %+v, want stale writes refused, none accepted, none lost", fenced.Verdict)
	}
}
