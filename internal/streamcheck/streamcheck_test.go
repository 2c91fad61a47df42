package streamcheck

import (
	"context"
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/internal/vetrun"
)

// marked is the fact of a function whose name starts with "Mark".
type marked struct{}

func (*marked) AFact()         {}
func (*marked) String() string { return "marked" }

// markAnalyzer exports a fact on each Mark function and reports the calls
// of marked functions, wherever they are declared, and which packages'
// facts it can see.
var markAnalyzer = &analysis.Analyzer{
	Name:      "mark",
	Doc:       "test: facts across packages",
	FactTypes: []analysis.Fact{new(marked)},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "Mark") {
					pass.ExportObjectFact(pass.TypesInfo.Defs[fd.Name], new(marked))
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var id *ast.Ident
				switch fun := call.Fun.(type) {
				case *ast.Ident:
					id = fun
				case *ast.SelectorExpr:
					id = fun.Sel
				}
				if fn, ok := pass.TypesInfo.Uses[id].(*types.Func); ok && pass.ImportObjectFact(fn, new(marked)) {
					pass.Reportf(call.Pos(), "call of marked %s", fn.Name())
				}
				return true
			})
		}
		var seen []string
		for _, f := range pass.AllObjectFacts() {
			seen = append(seen, f.Object.Pkg().Name()+"."+f.Object.Name())
		}
		slices.Sort(seen)
		if len(pass.Files) > 0 {
			pass.Reportf(pass.Files[0].Package, "facts seen: %s", strings.Join(seen, " "))
		}
		return nil, nil
	},
}

// recorder lists the packages an analyzer without facts ran on.
type recorder struct {
	mu   sync.Mutex
	pkgs []string
}

func (r *recorder) analyzer() *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:             "record",
		Doc:              "test: where analyzers without facts run",
		RunDespiteErrors: true,
		Run: func(pass *analysis.Pass) (any, error) {
			r.mu.Lock()
			r.pkgs = append(r.pkgs, pass.Pkg.Path())
			r.mu.Unlock()
			return nil, nil
		},
	}
}

var panicAnalyzer = &analysis.Analyzer{
	Name: "panics",
	Doc:  "test: panics on package b",
	Run: func(pass *analysis.Pass) (any, error) {
		if pass.Pkg.Name() == "b" {
			panic("boom")
		}
		return nil, nil
	},
}

func TestRun(t *testing.T) {
	rec := new(recorder)
	analyzers := []*analysis.Analyzer{markAnalyzer, rec.analyzer(), panicAnalyzer}
	res, err := Run(context.Background(), analyzers, Config{Dir: filepath.Join("testdata", "mod")}, "./b", "./c", "./broken")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		file, line, _ := vetrun.SplitPosn(f.Posn)
		got = append(got, fmt.Sprintf("%s %s:%d %s", f.Analyzer, filepath.Base(file), line, f.Message))
	}
	want := []string{
		// Facts from a (a dependency, not a root) reach b; c's do not.
		// In report order within a package.
		"mark b.go:8 call of marked MarkA",
		"mark b.go:10 call of marked MarkB",
		"mark b.go:1 facts seen: a.MarkA b.MarkB",
		"mark c.go:1 facts seen: c.MarkC",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// An analyzer without facts runs on the roots only.
	slices.Sort(rec.pkgs)
	if wantPkgs := []string{"example.com/mod/b", "example.com/mod/broken", "example.com/mod/c"}; !slices.Equal(rec.pkgs, wantPkgs) {
		t.Errorf("record ran on %v, want %v", rec.pkgs, wantPkgs)
	}
	// The type error is reported; the panic is a failure of its analyzer
	// on its package, and the analyzer that cannot run despite errors is
	// skipped on the broken package.
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "undefined: undefinedThing") || !strings.Contains(res.Errors[0], "broken.go:3:") {
		t.Errorf("errors %q, want the type error", res.Errors)
	}
	var failures []string
	for _, f := range res.Failures {
		failures = append(failures, f.Package+" "+f.Analyzer+": "+f.Err.Error())
	}
	slices.Sort(failures)
	if len(failures) != 3 || !strings.Contains(failures[0], "example.com/mod/b panics: analyzer panics panicked on package example.com/mod/b: boom") ||
		!strings.Contains(failures[1], "example.com/mod/broken mark: analysis skipped due to errors") ||
		!strings.Contains(failures[2], "example.com/mod/broken panics: analysis skipped due to errors") {
		t.Errorf("failures:\n%s", strings.Join(failures, "\n"))
	}
}

// TestBadPatterns: a pattern that matches nothing, and one the go command
// rejects, are errors, not a panic.
func TestBadPatterns(t *testing.T) {
	dir := filepath.Join("testdata", "mod")
	res, err := Run(context.Background(), []*analysis.Analyzer{markAnalyzer}, Config{Dir: dir}, "./nosuchdir")
	if err == nil && len(res.Errors) == 0 {
		t.Errorf("./nosuchdir: no error")
	}
	if _, err := Run(context.Background(), []*analysis.Analyzer{markAnalyzer}, Config{Dir: filepath.Join(dir, "nosuch")}, "./..."); err == nil {
		t.Errorf("missing directory: no error")
	}
}

// TestCancel: a cancelled context ends the run with its error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, []*analysis.Analyzer{markAnalyzer}, Config{Dir: filepath.Join("testdata", "mod")}, "./..."); err == nil {
		t.Error("cancelled run: no error")
	}
}
