package lockrelease_test

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzers/lockexpiry"
	"github.com/locklint/locklint/analyzers/lockrelease"
)

// TestFixesCompile applies every suggested fix of lockexpiry and
// lockrelease to code written against the real go-redis v9, redigo and
// safelock (from the module cache, downloaded first if missing, and this
// repository), and
// builds the result with go build.
func TestFixesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	_, self, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(self), "..", "..")
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "compile", "app.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/app\n\ngo 1.26\n\nrequire (\n\tgithub.com/locklint/locklint v0.0.0\n\tgithub.com/redis/go-redis/v9 v9.23.0\n\tgithub.com/gomodule/redigo v1.9.3\n)\n\nreplace github.com/locklint/locklint => " + repo + "\n"
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "app.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The modules come from the module cache, or from the module proxy on a
	// machine that has not built them yet (go test ./analyzers/lockrelease
	// alone does not download safelock's test dependency redigo). go list
	// -deps fetches every module the package's imports reach, go-redis's
	// own dependencies too, which go mod download of the two named modules
	// leaves out.
	dl := exec.Command("go", "list", "-deps", ".")
	dl.Dir = dir
	dl.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Env: env}, ".")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading: %v", err)
	}
	res, err := checker.Analyze([]*analysis.Analyzer{lockexpiry.Analyzer, lockrelease.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	type edit struct {
		start, end int
		text       string
	}
	seen := map[edit]bool{}
	var edits []edit
	fixes := 0
	for _, act := range res.Roots {
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			fixes++
			for _, e := range d.SuggestedFixes[0].TextEdits {
				f := act.Package.Fset.File(e.Pos)
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				ed := edit{f.Offset(e.Pos), f.Offset(end), string(e.NewText)}
				if !seen[ed] {
					seen[ed] = true
					edits = append(edits, ed)
				}
			}
		}
	}
	// Three releases in Job, Unlock, the goroutine, Args' Del, two redigo
	// DELs, and two merges of SETNX+EXPIRE.
	if fixes != 9 {
		t.Errorf("got %d fixes, want 9", fixes)
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := src
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	formatted, err := format.Source(out)
	if err != nil {
		t.Fatalf("fixed code does not parse: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.go"), formatted, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", ".")
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("fixed code does not build: %v\n%s\n%s", err, stderr.String(), formatted)
	}
	t.Logf("fixed code:\n%s", formatted)
}
