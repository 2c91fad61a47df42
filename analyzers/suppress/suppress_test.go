package suppress_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/locklint/locklint/analyzers/suppress"
)

// callbad reports every call of a function whose name starts with "bad".
var callbad = &analysis.Analyzer{
	Name:     "callbad",
	Doc:      "reports calls of bad functions",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		for n := range ins.PreorderSeq((*ast.CallExpr)(nil)) {
			call := n.(*ast.CallExpr)
			if id, ok := call.Fun.(*ast.Ident); ok && strings.HasPrefix(id.Name, "bad") {
				pass.ReportRangef(call, "call of %s", id.Name)
			}
		}
		return nil, nil
	},
}

var other = &analysis.Analyzer{
	Name: "other",
	Doc:  "reports nothing",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func TestDirectives(t *testing.T) {
	wrapped := suppress.Wrap([]*analysis.Analyzer{callbad, other})
	analysistest.Run(t, analysistest.TestData(), wrapped[0], "directives")
}

// deletes marks a function that calls del, directly or through others.
type deletes struct{}

func (*deletes) AFact()         {}
func (*deletes) String() string { return "deletes" }

// deleters answers, for any function, whether it carries the deletes fact.
type deleters func(*types.Func) bool

// marks exports the deletes fact; its result lets others read the facts.
var marks = &analysis.Analyzer{
	Name:       "marks",
	Doc:        "marks functions that delete",
	FactTypes:  []analysis.Fact{new(deletes)},
	ResultType: reflect.TypeFor[deleters](),
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				found := false
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if fn := callee(pass, call); fn != nil && (fn.Name() == "del" || pass.ImportObjectFact(fn, new(deletes))) {
							found = true
						}
					}
					return !found
				})
				if found {
					pass.ExportObjectFact(pass.TypesInfo.Defs[fd.Name], new(deletes))
				}
			}
		}
		return deleters(func(fn *types.Func) bool { return pass.ImportObjectFact(fn, new(deletes)) }), nil
	},
}

// middle is not listed; it requires a listed analyzer and is required by one.
var middle = &analysis.Analyzer{
	Name:       "middle",
	Doc:        "passes on the result of marks",
	Requires:   []*analysis.Analyzer{marks},
	ResultType: reflect.TypeFor[deleters](),
	Run: func(pass *analysis.Pass) (any, error) {
		return pass.ResultOf[marks].(deleters), nil // panics if the result is missing
	},
}

// uses reports calls of functions carrying the deletes fact.
var uses = &analysis.Analyzer{
	Name:     "uses",
	Doc:      "reports calls of deleting functions",
	Requires: []*analysis.Analyzer{middle, inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		isDeleter := pass.ResultOf[middle].(deleters) // panics if the result is missing
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		for n := range ins.PreorderSeq((*ast.CallExpr)(nil)) {
			call := n.(*ast.CallExpr)
			if fn := callee(pass, call); fn != nil && isDeleter(fn) {
				pass.ReportRangef(call, "call of %s.%s, which deletes", fn.Pkg().Name(), fn.Name())
			}
		}
		return nil, nil
	},
}

func callee(pass *analysis.Pass, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch fun := call.Fun.(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	default:
		return nil
	}
	fn, _ := pass.TypesInfo.Uses[id].(*types.Func)
	return fn
}

// TestFactsAndRequires checks that wrapped analyzers keep their facts
// across packages, their results for analyzers that require them, and a
// valid graph with each fact type registered once.
func TestFactsAndRequires(t *testing.T) {
	wrapped := suppress.Wrap([]*analysis.Analyzer{marks, uses})
	if err := analysis.Validate(wrapped); err != nil {
		t.Fatalf("wrapped analyzers are invalid: %v", err)
	}
	w := wrapped[1]
	if w == uses || w.Name != "uses" || w.Doc != uses.Doc {
		t.Fatalf("Wrap returned %p %q, want a copy of uses", w, w.Name)
	}
	if w.Requires[0] == middle || w.Requires[0].Requires[0] != wrapped[0] {
		t.Errorf("middle was not rewired to the wrapped marks")
	}
	if w.Requires[1] != inspect.Analyzer {
		t.Errorf("inspect was copied; analyzers that reach no listed analyzer must be shared")
	}
	analysistest.Run(t, analysistest.TestData(), w, "facts/b")

	again := suppress.Wrap(wrapped)
	for i := range wrapped {
		if again[i] != wrapped[i] {
			t.Errorf("wrapping %s twice made a new copy", wrapped[i].Name)
		}
	}
}

type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestPanicBecomesError checks that a panicking analyzer yields an error
// naming the analyzer and package instead of crashing the driver.
func TestPanicBecomesError(t *testing.T) {
	boom := &analysis.Analyzer{
		Name: "boom",
		Doc:  "panics",
		Run:  func(*analysis.Pass) (any, error) { panic("kaboom") },
	}
	var r recorder
	results := analysistest.Run(&r, analysistest.TestData(), suppress.Wrap([]*analysis.Analyzer{boom})[0], "boom")
	if len(results) != 1 || results[0].Err == nil {
		t.Fatalf("got results %v, want one with an error", results)
	}
	msg := results[0].Err.Error()
	for _, want := range []string{"internal error in analyzer boom on package boom", "kaboom"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}
}
