package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	gotoken "go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/locklint/locklint/analyzers/all"
)

// lockdemo is a test-only analyzer standing in for the real ones: it
// reports each call of a function named DelLock, with the declaration as
// related information and a fix that calls ReleaseLock instead.
var lockdemo = &analysis.Analyzer{
	Name:     "lockdemo",
	Doc:      "reports calls of DelLock\n\nA test-only analyzer for the locklint command's tests.",
	URL:      "https://example.com/lockdemo",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		for n := range ins.PreorderSeq((*ast.CallExpr)(nil)) {
			call := n.(*ast.CallExpr)
			id, ok := call.Fun.(*ast.Ident)
			if !ok || id.Name != "DelLock" {
				continue
			}
			d := analysis.Diagnostic{
				Pos:     call.Pos(),
				End:     call.End(),
				Message: "DelLock deletes the lock without an ownership check; use ReleaseLock",
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   "Call ReleaseLock",
					TextEdits: []analysis.TextEdit{{Pos: id.Pos(), End: id.End(), NewText: []byte("ReleaseLock")}},
				}},
			}
			if fn, ok := pass.TypesInfo.Uses[id].(*types.Func); ok {
				d.Related = []analysis.RelatedInformation{{Pos: fn.Pos(), End: fn.Pos() + gotoken.Pos(len(fn.Name())), Message: "DelLock is declared here"}}
			}
			pass.Report(d)
		}
		return nil, nil
	},
}

// The test binary doubles as the locklint command, with lockdemo added.
func TestMain(m *testing.M) {
	if os.Getenv("LOCKLINT_TEST_AS_COMMAND") == "1" {
		run(append(all.Analyzers(), lockdemo))
		return
	}
	os.Exit(m.Run())
}

// sample copies testdata/<name> to a temporary directory.
func sample(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// locklint runs the command (the test binary) in dir. With vet or fix as
// the first argument it runs `go vet -vettool` or `go fix -fixtool`.
func locklint(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return runLocklint(t, exe, dir, args...)
}

// runLocklint runs exe as locklint in dir (see locklint).
func runLocklint(t *testing.T, exe, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var cmd *exec.Cmd
	switch {
	case len(args) > 0 && args[0] == "vet":
		cmd = exec.Command("go", append([]string{"vet", "-vettool=" + exe}, args[1:]...)...)
	case len(args) > 0 && args[0] == "fix":
		cmd = exec.Command("go", append([]string{"fix", "-fixtool=" + exe}, args[1:]...)...)
	default:
		cmd = exec.Command(exe, args...)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LOCKLINT_TEST_AS_COMMAND=1", "GOFLAGS=-mod=mod", "GOWORK=off")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running %v: %v", cmd.Args, err)
	}
	if strings.Contains(errb.String(), "panic:") || strings.Contains(errb.String(), "goroutine ") {
		t.Errorf("%v panicked:\n%s", args, errb.String())
	}
	return out.String(), errb.String(), code
}

// The diagnostics expected on testdata/sample: line 21 is suppressed; the
// directive on line 25 has no reason, so line 26 is reported and so is
// the directive.
var wantText = []string{
	`sample.go:12:6: DelLock deletes the lock without an ownership check`,
	`sample.go:16:19: DelLock deletes the lock without an ownership check`,
	`sample.go:25:2: //locklint:ignore lockdemo needs a reason`,
	`sample.go:26:6: DelLock deletes the lock without an ownership check`,
}

// diagLine matches a diagnostic's first line, not its related lines,
// which start with a tab.
var diagLine = regexp.MustCompile(`sample\.go:\d+:\d+: [^\t]`)

func checkText(t *testing.T, what, out string) {
	t.Helper()
	for _, w := range wantText {
		if !strings.Contains(out, w) {
			t.Errorf("%s output lacks %q:\n%s", what, w, out)
		}
	}
	if strings.Contains(out, "sample.go:21:") {
		t.Errorf("%s reported the suppressed call on line 21:\n%s", what, out)
	}
	if n := len(diagLine.FindAllString(out, -1)); n != len(wantText) {
		t.Errorf("%s: got %d diagnostics, want %d:\n%s", what, n, len(wantText), out)
	}
}

func TestStandalone(t *testing.T) {
	dir := sample(t, "sample")
	_, stderr, code := locklint(t, dir, "./...")
	if code != 3 {
		t.Errorf("exit code %d, want 3 (diagnostics found); stderr:\n%s", code, stderr)
	}
	checkText(t, "locklint", stderr)
	if !strings.Contains(stderr, "sample.go:6:6: \tDelLock is declared here") {
		t.Errorf("related information missing:\n%s", stderr)
	}

	_, stderr, code = locklint(t, dir, "-lockdemo=false", "./...")
	if code != 0 || strings.Contains(stderr, "sample.go") {
		t.Errorf("-lockdemo=false: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestVet(t *testing.T) {
	dir := sample(t, "sample")
	_, stderr, code := locklint(t, dir, "vet", "./...")
	if code == 0 {
		t.Errorf("go vet -vettool succeeded despite diagnostics; stderr:\n%s", stderr)
	}
	checkText(t, "go vet -vettool", stderr)
}

func TestJSON(t *testing.T) {
	dir := sample(t, "sample")
	stdout, stderr, code := locklint(t, dir, "-json", "./...")
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	checkText(t, "-json", strings.Join(jsonLines(t, stdout)["example.com/sample"], "\n"))
}

// jsonLines decodes locklint -json output ({"pkg": {"lockdemo": [{"posn":
// ..., "message": ...}]}}) into "file:line:col: message" lines per package.
func jsonLines(t *testing.T, stdout string) map[string][]string {
	t.Helper()
	var tree map[string]map[string][]struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, stdout)
	}
	lines := make(map[string][]string)
	for pkg, byAnalyzer := range tree {
		for _, d := range byAnalyzer["lockdemo"] {
			lines[pkg] = append(lines[pkg], filepath.Base(d.Posn)+": "+d.Message)
		}
	}
	return lines
}

// TestJSONOnce checks that a package analysed with and without its tests
// prints each diagnostic once, not again under "pkg [pkg.test]".
func TestJSONOnce(t *testing.T) {
	dir := sample(t, "sample")
	test := "package sample\n\nimport \"testing\"\n\nfunc TestPlain(t *testing.T) { plain() }\n"
	if err := os.WriteFile(filepath.Join(dir, "sample_test.go"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := locklint(t, dir, "-json", "./...")
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	var lines []string
	for pkg, l := range jsonLines(t, stdout) {
		if pkg != "example.com/sample" {
			t.Errorf("diagnostics under %s; want all under example.com/sample:\n%s", pkg, stdout)
		}
		lines = append(lines, l...)
	}
	slices.Sort(lines)
	checkText(t, "-json with tests", strings.Join(lines, "\n"))
}

var fixed = regexp.MustCompile(`(?m)^\s*_(, _)? = .*(DelLock|ReleaseLock)\("(\w)"\)$`)

// calls returns, for each DelLock or ReleaseLock call in sample.go, the
// argument and the function called.
func calls(t *testing.T, dir string) map[string]string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "sample.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]string)
	for _, c := range fixed.FindAllStringSubmatch(string(src), -1) {
		m[c[3]] = c[2]
	}
	return m
}

func TestFix(t *testing.T) {
	want := map[string]string{"a": "ReleaseLock", "b": "ReleaseLock", "c": "DelLock", "d": "ReleaseLock"}
	for _, args := range [][]string{{"-fix", "./..."}, {"fix", "./..."}, {"inprocess", "-fix", "./..."}} {
		dir := sample(t, "sample")
		if args[0] == "inprocess" {
			t.Setenv(driverEnv, "inprocess")
			args = args[1:]
		}
		_, stderr, code := locklint(t, dir, args...)
		os.Unsetenv(driverEnv)
		if code != 0 {
			t.Errorf("%v: exit code %d; stderr:\n%s", args, code, stderr)
		}
		got := calls(t, dir)
		for arg, fn := range want {
			if got[arg] != fn {
				t.Errorf("%v: call with %q is %q after the fix, want %q", args, arg, got[arg], fn)
			}
		}
	}

	dir := sample(t, "sample")
	stdout, stderr, code := locklint(t, dir, "-fix", "-diff", "./...")
	if !strings.Contains(stdout, `+	_ = ReleaseLock("a")`) || !strings.Contains(stdout, `-	_ = DelLock("a")`) {
		t.Errorf("-fix -diff printed no diff for the fix; stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if code != 0 {
		t.Errorf("-fix -diff: exit code %d, want 0 (as in process)", code)
	}
	if got := calls(t, dir); got["a"] != "DelLock" {
		t.Errorf("-fix -diff changed the file")
	}
}

func TestTypeErrors(t *testing.T) {
	dir := sample(t, "broken")
	for _, args := range [][]string{{"./..."}, {"vet", "./..."}, {"-sarif", "./..."}} {
		_, stderr, code := locklint(t, dir, args...)
		if code == 0 {
			t.Errorf("%v: exit code 0 on a package that does not type-check", args)
		}
		if !strings.Contains(stderr, "broken.go:5:9: undefined: undefinedThing") {
			t.Errorf("%v: stderr lacks the type error:\n%s", args, stderr)
		}
	}
}

func TestIsVetUnit(t *testing.T) {
	for args, want := range map[string]bool{
		"-json /tmp/go-build1/b001/vet.cfg":   true,
		"/tmp/go-build1/b001/vet.cfg":         true,
		"-lockvalue=false ./...":              false,
		"-flags":                              false,
		"":                                    false,
		"-V=full":                             false,
		"-fix /tmp/go-build2/b007/fix.cfg":    true,
		"./cfg":                               false,
		"-sarif ./config.cfg/...":             false,
		"-tags x /tmp/go-build1/b002/vet.cfg": true,
	} {
		if got := isVetUnit(strings.Fields(args)); got != want {
			t.Errorf("isVetUnit(%q) = %v, want %v", args, got, want)
		}
	}
}
