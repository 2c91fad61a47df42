package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/locklint/locklint/internal/redistest"
)

// short keeps command runs to a fraction of a second.
var short = []string{"--ops", "20", "--clients", "2", "--duration", "50ms", "--set-clients", "2",
	"--safety-duration", "150ms", "--no-progress"}

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// wantOneLineError checks the bad-input contract: non-zero exit, exactly
// one line on stderr containing want, no stack trace, no secret.
func wantOneLineError(t *testing.T, args []string, want, secret string) {
	t.Helper()
	code, stdout, stderr := runCmd(t, args...)
	if code == 0 {
		t.Errorf("%v: exit 0, want non-zero (stdout %q)", args, stdout)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "lockbench: ") {
		t.Errorf("%v: stderr is not one line: %q", args, stderr)
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("%v: stderr %q does not say %q", args, stderr, want)
	}
	if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
		t.Errorf("%v: stack trace on stderr: %q", args, stderr)
	}
	if secret != "" && (strings.Contains(stderr, secret) || strings.Contains(stdout, secret)) {
		t.Errorf("%v: output shows the password", args)
	}
}

func closedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

func TestBadInput(t *testing.T) {
	m := miniredis.RunT(t)
	m.RequireUserAuth("alice", "rightpw")
	cases := []struct {
		args         []string
		want, secret string
	}{
		{[]string{"--redis", "redis://bob:hunter2@127.0.0.1:notaport"}, "malformed URL redis://bob:xxxxx@", "hunter2"},
		{[]string{"--redis", "http://bob:hunter2@host:1"}, "scheme must be redis", "hunter2"},
		{[]string{"--redis", "redis://bob:hunter2@" + closedAddr(t)}, "cannot reach", "hunter2"},
		{[]string{"--redis", "redis://alice:hunter2@" + m.Addr()}, "authentication failed", "hunter2"},
		{[]string{"--redis", "redis://" + m.Addr()}, "authentication required", ""},
		{[]string{"--cluster", "not an address"}, "malformed address", ""},
		{[]string{"--spawn", "--redis", "redis://h:1"}, "mutually exclusive", ""},
		{[]string{"--cluster", "h:1", "--redis", "redis://h:1"}, "mutually exclusive", ""},
		{[]string{"--clients", "0"}, "--clients", ""},
		{[]string{"--hold", "10s", "--ttl", "1s"}, "--hold", ""},
		{[]string{"--safety-pause", "5ms"}, "--safety-pause", ""},
		{[]string{"--workload", "latnecy"}, "unknown workload", ""},
		{[]string{"--impl", "bogus"}, "unknown implementation", ""},
		{[]string{"--json", "-", "--bench-format"}, "stdout", ""},
		{[]string{"--no-such-flag"}, "not defined", ""},
		{[]string{"--ttl", "soon"}, "invalid value", ""},
		{[]string{"stray"}, "unexpected argument", ""},
		{[]string{"--json", filepath.Join(t.TempDir(), "no", "such", "dir.json")}, "no such file", ""},
		{[]string{"merge"}, "give the JSON reports", ""},
		{[]string{"merge", filepath.Join(t.TempDir(), "missing.json")}, "no such file", ""},
	}
	for _, c := range cases {
		wantOneLineError(t, c.args, c.want, c.secret)
	}
}

func TestClusterFlagOnPlainServer(t *testing.T) {
	srv := redistest.Start(t)
	wantOneLineError(t, []string{"--cluster", srv.Addr()}, "not a Redis Cluster node", "")
}

func TestMergeRejectsNonReport(t *testing.T) {
	f := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(f, []byte(`{"hello": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	wantOneLineError(t, []string{"merge", f}, "not a lockbench JSON report", "")
}

func TestHelp(t *testing.T) {
	code, stdout, _ := runCmd(t, "-h")
	if code != 0 || !strings.Contains(stdout, "--redis") && !strings.Contains(stdout, "-redis") {
		t.Errorf("help: exit %d, output %q", code, stdout)
	}
}

func TestEmbeddedRunOutputsAndMerge(t *testing.T) {
	dir := t.TempDir()
	a, h := filepath.Join(dir, "a.json"), filepath.Join(dir, "r.html")
	args := append([]string{"--workload", "latency,contention", "--impl", "naive,redsync", "--json", a}, short...)
	code, stdout, stderr := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "embedded miniredis") || !strings.Contains(stdout, "TTL advice") {
		t.Errorf("table does not say where the figures come from or lacks the advice:\n%s", stdout)
	}
	if stderr != "" {
		t.Errorf("stderr not empty without a terminal: %q", stderr)
	}
	// A run merged with itself: what two machines with the same figures
	// would give.
	code, stdout, stderr = runCmd(t, "merge", a, a, "--json", "-", "--html", h)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	var merged struct {
		Schema  string `json:"schema"`
		Version int    `json:"version"`
		Sources []any  `json:"sources"`
		Latency []struct {
			Impl    string `json:"impl"`
			Acquire struct {
				Count int `json:"count"`
			} `json:"acquire"`
		} `json:"latency"`
	}
	if err := json.Unmarshal([]byte(stdout), &merged); err != nil {
		t.Fatalf("merged JSON: %v", err)
	}
	if merged.Schema != "lockbench" || merged.Version != 1 || len(merged.Sources) != 2 || merged.Latency[0].Acquire.Count != 40 {
		t.Errorf("merged report: %+v", merged)
	}
	page, err := os.ReadFile(h)
	if err != nil || !strings.Contains(string(page), "<svg") {
		t.Errorf("HTML report: %v", err)
	}
	code, stdout, _ = runCmd(t, "merge", "--bench-format", a)
	if code != 0 || !strings.Contains(stdout, "BenchmarkLatency/impl=naive/op=acquire") {
		t.Errorf("bench format: exit %d\n%s", code, stdout)
	}
}

func TestSpawnFlag(t *testing.T) {
	redistest.Binary(t)
	args := append([]string{"--spawn", "--workload", "latency", "--impl", "safelock,naive", "--json", "-"}, short...)
	code, stdout, stderr := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Sources []struct{ Kind, Server string }
		Latency []struct {
			Impl    string
			Acquire struct{ Count int }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Sources[0].Kind != "spawned" || !strings.Contains(rep.Sources[0].Server, "started by lockbench") {
		t.Errorf("source %+v", rep.Sources[0])
	}
	if len(rep.Latency) != 2 || rep.Latency[0].Acquire.Count != 20 {
		t.Errorf("latency %+v", rep.Latency)
	}
}

// TestBinaryExitCode builds the command and checks what a shell sees.
func TestBinaryExitCode(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "lockbench")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--redis", "redis://u:topsecret@"+closedAddr(t))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v", err)
	}
	if s := stderr.String(); strings.Count(s, "\n") != 1 || strings.Contains(s, "topsecret") || !strings.Contains(s, "u:xxxxx@") {
		t.Errorf("stderr %q", s)
	}
}
