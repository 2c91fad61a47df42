package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzers/all"
)

// wantMarker finds "want NAME" and "want-standalone NAME" at line ends in
// testdata/integration/redis.
var wantMarker = regexp.MustCompile(`\bwant(-standalone)? ([\w,]+)$`)

// expected returns "file:line analyzer" for each marker in the sample whose
// analyzer is registered: what locklint must report there.
func expected(t *testing.T, dir string) []string {
	t.Helper()
	registered := make(map[string]bool)
	for _, a := range all.Analyzers() {
		registered[a.Name] = true
	}
	var want []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := wantMarker.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			for name := range strings.SplitSeq(m[2], ",") {
				if registered[name] {
					want = append(want, fmt.Sprintf("%s:%d %s", filepath.Base(path), i+1, name))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	return want
}

// buildLocklint builds the real command, without the test's -race
// instrumentation and test analyzer: the end-to-end runs load go-redis from
// source several times, which the race detector would slow many times over.
func buildLocklint(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "locklint")
	cmd := exec.Command("go", "build", "-o", exe, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building locklint: %v\n%s", err, out)
	}
	return exe
}

// jsonDiagnostics runs locklint -json and returns "file:line analyzer" for
// each diagnostic.
func jsonDiagnostics(t *testing.T, exe, dir string) []string {
	t.Helper()
	stdout, stderr, code := runLocklint(t, exe, dir, "-json", "./...")
	if code != 0 {
		t.Fatalf("locklint -json: exit code %d\n%s", code, stderr)
	}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, stdout)
	}
	var got []string
	for _, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var diags []struct{ Posn string }
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Fatalf("%s: %v (%s)", name, err, raw) // e.g. {"error": ...}
			}
			for _, d := range diags {
				parts := strings.Split(d.Posn, ":") // file:line:col
				got = append(got, fmt.Sprintf("%s:%s %s", filepath.Base(parts[0]), parts[1], name))
			}
		}
	}
	slices.Sort(got)
	return got
}

// linkLocklint makes the sample module at dir require this checkout of
// locklint, so that code fixed to call safelock builds.
func linkLocklint(t *testing.T, dir, root string) {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "go.mod"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = fmt.Fprintf(f, "\nrequire github.com/locklint/locklint v0.0.0\n\nreplace github.com/locklint/locklint => %s\n", root)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestRealAnalyzers runs the registered locklint analyzers through the
// command on sample code shaped like real projects: the marked diagnostics
// appear in text, JSON, go vet and SARIF output, //locklint:ignore
// suppresses, and -fix leaves code that builds and no longer reports the
// fixed defects.
func TestRealAnalyzers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: loads go-redis from source several times")
	}
	src := filepath.Join("..", "..", "testdata", "integration", "redis")
	dir := filepath.Join(t.TempDir(), "redis")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	exe := buildLocklint(t)
	linkLocklint(t, dir, filepath.Join("..", ".."))
	want := expected(t, dir)
	if len(want) == 0 {
		t.Fatal("the sample marks nothing for the registered analyzers")
	}
	if got := jsonDiagnostics(t, exe, dir); !slices.Equal(got, want) {
		t.Errorf("locklint -json reports\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Without its //locklint:ignore directives the sample reports more: the
	// directives suppress diagnostics that exist.
	unignored := filepath.Join(t.TempDir(), "redis")
	if err := os.CopyFS(unignored, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	jobs := filepath.Join(unignored, "jobs", "jobs.go")
	data, err := os.ReadFile(jobs)
	if err != nil {
		t.Fatal(err)
	}
	stripped := regexp.MustCompile(`(?m)^\s*//locklint:ignore .*\n`).ReplaceAll(data, nil)
	if err := os.WriteFile(jobs, stripped, 0o644); err != nil {
		t.Fatal(err)
	}
	if n := len(jsonDiagnostics(t, exe, unignored)); n <= len(want) {
		t.Errorf("without //locklint:ignore: %d diagnostics, want more than %d", n, len(want))
	}

	// Text output from locklint and go vet: the same lines.
	var wantLines []string
	for _, w := range want {
		wantLines = append(wantLines, strings.Fields(w)[0])
	}
	wantLines = slices.Compact(wantLines)
	line := regexp.MustCompile(`(?m)^\S*?([\w.]+\.go):(\d+):\d+: [^\t]`)
	for _, args := range [][]string{{"./..."}, {"vet", "./..."}} {
		_, stderr, code := runLocklint(t, exe, dir, args...)
		if code == 0 {
			t.Errorf("%v: exit code 0 despite diagnostics", args)
		}
		var got []string
		for _, m := range line.FindAllStringSubmatch(stderr, -1) {
			got = append(got, m[1]+":"+m[2])
		}
		slices.Sort(got)
		if got = slices.Compact(got); !slices.Equal(got, wantLines) {
			t.Errorf("%v reports lines %v, want %v:\n%s", args, got, wantLines, stderr)
		}
	}

	// SARIF: valid, a rule per analyzer with its URL, results on the same
	// lines, fixes where the analyzer offers them.
	stdout, stderr, code := runLocklint(t, exe, dir, "-sarif", "./...")
	if code != 0 {
		t.Fatalf("-sarif: exit code %d\n%s", code, stderr)
	}
	run := validate(t, sarifSchema(t), stdout).Runs[0]
	for i, a := range all.Analyzers() {
		if r := run.Tool.Driver.Rules[i]; r.ID != a.Name || r.HelpURI != a.URL || r.FullDescription.Text != a.Doc {
			t.Errorf("rule %d: %+v, want %s", i, r, a.Name)
		}
	}
	var got []string
	fixes := 0
	for _, r := range run.Results {
		got = append(got, fmt.Sprintf("%s:%d %s", filepath.Base(r.Locations[0].PhysicalLocation.ArtifactLocation.URI), r.Locations[0].PhysicalLocation.Region.StartLine, r.RuleID))
		fixes += len(r.Fixes)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("SARIF results\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fixes == 0 {
		t.Errorf("SARIF carries no fixes; the sample has fixable defects")
	}

	// -fix: the result builds, and fewer defects remain.
	if _, stderr, code := runLocklint(t, exe, dir, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit code %d\n%s", code, stderr)
	}
	build := exec.Command("go", "build", "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("fixed code does not build: %v\n%s", err, out)
	}
	if after := jsonDiagnostics(t, exe, dir); len(after) >= len(want) {
		t.Errorf("after -fix still %d diagnostics (before: %d):\n%s", len(after), len(want), strings.Join(after, "\n"))
	}
}
