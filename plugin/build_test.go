package plugin_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzers/all"
)

// golangciLintBinary returns the golangci-lint binary with the locklint
// plugin (and the test-only lockdemo linter) that .ci/golangci-lint builds.
// Building it takes minutes on a cold module cache, more than one test's
// budget, so it is a step of its own: the tests take its path from
// LOCKLINT_GOLANGCI_LINT, skip without it, and fail without it in CI.
func golangciLintBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("LOCKLINT_GOLANGCI_LINT")
	if bin == "" {
		msg := "golangci-lint end-to-end checks need a binary: bash .ci/golangci-lint && LOCKLINT_GOLANGCI_LINT=$PWD/bin/golangci-lint-e2e go test ./plugin/"
		if os.Getenv("CI") != "" || os.Getenv("LOCKLINT_REQUIRE_GOLANGCI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if !filepath.IsAbs(bin) {
		t.Fatalf("LOCKLINT_GOLANGCI_LINT=%s: want an absolute path (tests run in the package directory)", bin)
	}
	out, err := exec.Command("go", "version", "-m", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("LOCKLINT_GOLANGCI_LINT=%s: %v\n%s", bin, err, out)
	}
	if !strings.Contains(string(out), "-tags=locklint_e2e") {
		t.Fatalf("LOCKLINT_GOLANGCI_LINT=%s was not built with the lockdemo linter (-tags locklint_e2e): build it with bash .ci/golangci-lint", bin)
	}
	return bin
}

// golangciLint runs bin in dir and returns stdout, stderr and exit code.
func golangciLint(t *testing.T, bin, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	// golangci-lint holds a lock file in the temporary directory; a private
	// one keeps other golangci-lint runs on the machine from failing this one.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOLANGCI_LINT_CACHE="+t.TempDir(), "TMPDIR="+t.TempDir())
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
	bin := golangciLintBinary(t)

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

	t.Run("real analyzers", func(t *testing.T) { testRealAnalyzers(t, bin) })
	testEditorRecipes(t, bin)
}

// wantMarker finds "want NAME[,NAME]" (and "want-standalone NAME", which
// golangci-lint must not report because of the //nolint on the line) at
// line ends in testdata/integration/redis.
var wantMarker = regexp.MustCompile(`\bwant(-standalone)? ([\w,]+)$`)

// testRealAnalyzers runs the registered locklint analyzers as golangci-lint
// linters on sample code shaped like real projects.
func testRealAnalyzers(t *testing.T, bin string) {
	analyzers := all.Analyzers()
	if len(analyzers) == 0 {
		t.Fatal("analyzers/all registers no analyzers")
	}
	proj := copyDir(t, filepath.Join("..", "testdata", "integration", "redis"))
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// Fixed code calls safelock: make the sample require this checkout.
	gomod := filepath.Join(proj, "go.mod")
	mod, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	mod = fmt.Appendf(mod, "\nrequire github.com/locklint/locklint v0.0.0\n\nreplace github.com/locklint/locklint => %s\n", root)
	if err := os.WriteFile(gomod, mod, 0o644); err != nil {
		t.Fatal(err)
	}
	// The example configuration users copy, as it is.
	example, err := os.ReadFile(filepath.Join("..", "docs", "golangci.example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".golangci.yml"), example, 0o644); err != nil {
		t.Fatal(err)
	}
	registered := make(map[string]bool)
	for _, a := range analyzers {
		registered[a.Name] = true
	}

	data, err := os.ReadFile(filepath.Join(proj, "jobs", "jobs.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, line := range strings.Split(string(data), "\n") {
		if m := wantMarker.FindStringSubmatch(line); m != nil && m[1] == "" {
			for name := range strings.SplitSeq(m[2], ",") {
				if registered[name] {
					want = append(want, fmt.Sprintf("jobs/jobs.go:%d %s", i+1, name))
				}
			}
		}
	}
	slices.Sort(want)

	stdout, stderr, code := golangciLint(t, bin, proj, "run", "./...")
	if code != 1 {
		t.Errorf("exit code %d, want 1; stderr:\n%s", code, stderr)
	}
	var got []string
	for _, m := range issueLine.FindAllStringSubmatch(stdout, -1) {
		if registered[m[5]] { // the example also enables golangci-lint's standard linters
			got = append(got, m[1]+":"+m[2]+" "+m[5])
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("golangci-lint reports\n%s\nwant\n%s\nstdout:\n%s\nstderr:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), stdout, stderr)
	}

	if _, stderr, code := golangciLint(t, bin, proj, "run", "--fix", "--enable-only="+strings.Join(slices.Sorted(maps.Keys(registered)), ","), "./..."); code > 1 {
		t.Fatalf("--fix: exit code %d\n%s", code, stderr)
	}
	fixed, err := os.ReadFile(filepath.Join(proj, "jobs", "jobs.go"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(fixed, data) {
		t.Errorf("--fix changed nothing; the sample has fixable defects")
	}
	build := exec.Command("go", "build", "./...")
	build.Dir = proj
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("code fixed by golangci-lint --fix does not build: %v\n%s\n%s", err, out, fixed)
	}
}

// wantEditorIssues are the demo.go issues every editor should show.
var wantEditorIssues = []string{"demo.go:13:6", "demo.go:26:6"}

func checkIssues(t *testing.T, what string, got []string, out string) {
	t.Helper()
	if strings.Join(got, " ") != strings.Join(wantEditorIssues, " ") {
		t.Errorf("%s shows issues %v, want %v; output:\n%s", what, got, wantEditorIssues, out)
	}
}

// jsonIssues decodes golangci-lint's JSON output as nvim-lint and none-ls
// read it, resolving relative file names against dir.
func jsonIssues(t *testing.T, out, dir string) []string {
	t.Helper()
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("golangci-lint JSON: %v\n%s", err, out)
	}
	var got []string
	for _, is := range report.Issues {
		name := is.Pos.Filename
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		if _, err := os.Stat(name); err != nil || is.FromLinter != "lockdemo" || is.Text == "" {
			t.Errorf("issue %+v: file %s (%v)", is, name, err)
		}
		got = append(got, fmt.Sprintf("%s:%d:%d", filepath.Base(name), is.Pos.Line, is.Pos.Column))
	}
	return got
}

// testEditorRecipes checks each editor recipe in docs/editors: the file
// parses, and the command line the editor runs with it gives the issues
// in the form the editor reads.
func testEditorRecipes(t *testing.T, bin string) {
	docs := filepath.Join("..", "docs", "editors")
	proj := copyDir(t, filepath.Join("..", "testdata", "integration", "golangci"))
	pkgDir := filepath.Join(proj, "demo")

	t.Run("vscode", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(docs, "vscode-settings.json"))
		if err != nil {
			t.Fatal(err)
		}
		var settings struct {
			LintTool       string            `json:"go.lintTool"`
			AlternateTools map[string]string `json:"go.alternateTools"`
			LintOnSave     string            `json:"go.lintOnSave"`
			LintFlags      []string          `json:"go.lintFlags"`
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&settings); err != nil {
			t.Fatalf("vscode-settings.json: %v", err)
		}
		if settings.LintTool != "golangci-lint-v2" || !strings.HasSuffix(settings.AlternateTools[settings.LintTool], "/golangci-lint-locklint") {
			t.Errorf("settings do not point %q at the custom binary: %+v", settings.LintTool, settings)
		}
		// vscode-go (extension/src/goLint.ts) runs golangci-lint v2 in the
		// package directory with the user's flags and then these, and reads
		// file:line:col: message lines.
		args := append(append([]string{"run"}, settings.LintFlags...),
			"--issues-exit-code=0", "--output.text.print-issued-lines=false", "--show-stats=false",
			"--output.text.path=stdout", "--path-mode=abs")
		stdout, stderr, code := golangciLint(t, bin, pkgDir, args...)
		if code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr)
		}
		var got []string
		for _, m := range regexp.MustCompile(`(?m)^(/[^:]+\.go):(\d+):(\d+): (.+)$`).FindAllStringSubmatch(stdout, -1) {
			got = append(got, filepath.Base(m[1])+":"+m[2]+":"+m[3])
		}
		checkIssues(t, "VS Code", got, stdout)
	})

	t.Run("neovim", func(t *testing.T) {
		for _, name := range []string{"nvim-lint.lua", "none-ls.lua"} {
			luac, err := exec.LookPath("luac5.4")
			if err != nil {
				luac, err = exec.LookPath("luac")
			}
			if err != nil {
				t.Logf("no luac on PATH: %s not syntax-checked", name)
				continue
			}
			if out, err := exec.Command(luac, "-p", filepath.Join(docs, name)).CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", name, err, out)
			}
		}
		// nvim-lint's golangcilint linter (v2 arguments), run on the
		// buffer's directory from the project root.
		stdout, stderr, code := golangciLint(t, bin, proj, "run", "--output.json.path=stdout",
			"--output.text.path=", "--output.tab.path=", "--output.html.path=", "--output.checkstyle.path=",
			"--output.code-climate.path=", "--output.junit-xml.path=", "--output.teamcity.path=", "--output.sarif.path=",
			"--issues-exit-code=0", "--show-stats=false", "--path-mode=abs", pkgDir)
		if code != 0 {
			t.Errorf("nvim-lint command: exit code %d; stderr:\n%s", code, stderr)
		}
		checkIssues(t, "nvim-lint", jsonIssues(t, stdout, proj), stdout)

		// none-ls's golangci_lint source, run from the go.mod directory.
		stdout, stderr, code = golangciLint(t, bin, proj, "run", "--fix=false", "--show-stats=false", "--output.json.path=stdout")
		if code > 2 {
			t.Errorf("none-ls command: exit code %d; stderr:\n%s", code, stderr)
		}
		checkIssues(t, "none-ls", jsonIssues(t, stdout, proj), stdout)
	})

	t.Run("goland", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(docs, "goland-watcherTasks.xml"))
		if err != nil {
			t.Fatal(err)
		}
		type option struct {
			Name    string `xml:"name,attr"`
			Value   string `xml:"value,attr"`
			Filters []struct {
				Options []option `xml:"option"`
			} `xml:"array>FilterInfo"`
		}
		var project struct {
			Options []option `xml:"component>TaskOptions>option"`
		}
		if err := xml.Unmarshal(data, &project); err != nil {
			t.Fatalf("goland-watcherTasks.xml: %v", err)
		}
		opt := make(map[string]string)
		filters := 0
		for _, o := range project.Options {
			opt[o.Name] = o.Value
			for _, f := range o.Filters {
				filters++
				for _, fo := range f.Options {
					opt["filter."+fo.Name] = fo.Value
				}
			}
		}
		if filters != 1 {
			t.Fatalf("want one output filter, got %d", filters)
		}
		if !strings.HasSuffix(opt["program"], "/golangci-lint-locklint") || opt["fileExtension"] != "go" {
			t.Errorf("watcher options %v", opt)
		}
		// Expand GoLand's macros and run the watcher's command line.
		expand := strings.NewReplacer("$FileDir$", pkgDir, "$ProjectFileDir$", proj)
		stdout, stderr, code := golangciLint(t, bin, expand.Replace(opt["workingDir"]), strings.Fields(expand.Replace(opt["arguments"]))...)
		if code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr)
		}
		// The output filter, with GoLand's macros as regular expressions.
		pattern := regexp.QuoteMeta(opt["filter.regExp"])
		for macro, re := range map[string]string{"$FILE_PATH$": `(?P<file>/[^:]+)`, "$LINE$": `(\d+)`, "$COLUMN$": `(\d+)`, "$MESSAGE$": `(.+)`} {
			pattern = strings.Replace(pattern, regexp.QuoteMeta(macro), re, 1)
		}
		var got []string
		for _, m := range regexp.MustCompile("(?m)^"+pattern+"$").FindAllStringSubmatch(stdout, -1) {
			got = append(got, filepath.Base(m[1])+":"+m[2]+":"+m[3])
		}
		checkIssues(t, "GoLand File Watcher", got, stdout)
	})

	t.Run("example config", func(t *testing.T) {
		example, err := filepath.Abs(filepath.Join("..", "docs", "golangci.example.yml"))
		if err != nil {
			t.Fatal(err)
		}
		_, stderr, code := golangciLint(t, bin, proj, "config", "verify", "--config", example)
		if code != 0 {
			t.Errorf("docs/golangci.example.yml does not validate: exit %d\n%s", code, stderr)
		}
	})
}
