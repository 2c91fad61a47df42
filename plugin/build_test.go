package plugin_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// demoLinter is compiled into the test's golangci-lint binary beside the
// real analyzers: a stand-in that reports calls of DelLock and fixes them
// to call the function named by its "replacement" setting.
const demoLinter = `package main

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/plugin"
)

func init() {
	a := &analysis.Analyzer{Name: "lockdemo", Doc: "reports calls of DelLock"}
	replacement := a.Flags.String("replacement", "ReleaseKey", "function to call instead")
	a.Run = func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "DelLock" {
					pass.Report(analysis.Diagnostic{
						Pos: call.Pos(), End: call.End(),
						Message: "DelLock deletes the lock without an ownership check",
						SuggestedFixes: []analysis.SuggestedFix{{
							Message:   "Call " + *replacement,
							TextEdits: []analysis.TextEdit{{Pos: id.Pos(), End: id.End(), NewText: []byte(*replacement)}},
						}},
					})
				}
				return true
			})
		}
		return nil, nil
	}
	plugin.Register(a)
}
`

// buildGolangciLint builds tools/golangci's main, plus demoLinter, into a
// binary, the way a user builds the custom golangci-lint: from the module
// proxy (or the module cache) alone.
func buildGolangciLint(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(root, "tools", "golangci")
	mod := t.TempDir()
	for _, name := range []string{"main.go", "go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "go.mod" {
			data = bytes.Replace(data, []byte("=> ../.."), []byte("=> "+root), 1)
			if !bytes.Contains(data, []byte("=> "+root)) {
				t.Fatalf("tools/golangci/go.mod has no `replace ... => ../..`")
			}
		}
		if err := os.WriteFile(filepath.Join(mod, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mod, "demo.go"), []byte(demoLinter), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "golangci-lint")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building golangci-lint with the plugin: %v\n%s", err, out)
	}
	t.Logf("built golangci-lint with the locklint plugin in %v", time.Since(start).Round(time.Second))
	return bin
}

// golangciLint runs bin in dir and returns stdout, stderr and exit code.
func golangciLint(t *testing.T, bin, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOLANGCI_LINT_CACHE="+t.TempDir())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("running %v: %v", args, err)
	}
	if strings.Contains(errb.String(), "panic:") {
		t.Errorf("golangci-lint %v panicked:\n%s", args, errb.String())
	}
	return out.String(), errb.String(), code
}

func copyDir(t *testing.T, from string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(from))
	if err := os.CopyFS(dir, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	return dir
}

var issueLine = regexp.MustCompile(`(?m)^(\S+\.go):(\d+):(\d+): (.*) \((\w+)\)$`)

// TestGolangciLintBinary builds a golangci-lint binary containing the
// plugin and checks, on sample code, that the diagnostics appear, that
// //nolint:<linter> and //locklint:ignore suppress them, that settings
// reach the analyzer's flags, and that --fix applies the fixes.
func TestGolangciLintBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint: seconds with a warm build cache, minutes cold")
	}
	bin := buildGolangciLint(t)

	t.Run("diagnostics and nolint", func(t *testing.T) {
		proj := copyDir(t, filepath.Join("..", "testdata", "integration", "golangci"))
		stdout, stderr, code := golangciLint(t, bin, proj, "run", "./...")
		if code != 1 {
			t.Errorf("exit code %d, want 1 (issues found); stderr:\n%s", code, stderr)
		}
		var got []string
		for _, m := range issueLine.FindAllStringSubmatch(stdout, -1) {
			got = append(got, m[1]+":"+m[2]+":"+m[3]+" "+m[5])
		}
		want := []string{"demo/demo.go:13:6 lockdemo", "demo/demo.go:26:6 lockdemo"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("issues:\n%s\nwant:\n%s\nstdout:\n%s\nstderr:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), stdout, stderr)
		}
	})

	t.Run("fix", func(t *testing.T) {
		proj := copyDir(t, filepath.Join("..", "testdata", "integration", "golangci"))
		_, stderr, code := golangciLint(t, bin, proj, "run", "--fix", "./...")
		if code != 0 {
			t.Errorf("exit code %d after --fix, want 0; stderr:\n%s", code, stderr)
		}
		src, err := os.ReadFile(filepath.Join(proj, "demo", "demo.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			`_ = ReleaseLock("a")`, // fixed, with the replacement from the settings
			`_ = DelLock("b")`,     // nolint
			`_ = DelLock("c")`,     // locklint:ignore
			`_ = ReleaseLock("d")`, // fixed
		} {
			if !strings.Contains(string(src), want) {
				t.Errorf("after --fix, demo.go lacks %s:\n%s", want, src)
			}
		}
	})
}
