package later_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/later"
	"github.com/locklint/locklint/analyzers/internal/testutil"
)

// probe reports every node Async finds in the package's function bodies.
var probe = &analysis.Analyzer{
	Name:     "probe",
	Doc:      "reports the nodes of function bodies that run later",
	Requires: []*analysis.Analyzer{later.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[later.Analyzer].(*later.Result)
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					for n := range res.Async(fd.Body) {
						pass.Reportf(n.Pos(), "async")
					}
				}
			}
		}
		return nil, nil
	},
}

func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), later.Analyzer, "pool", "golang.org/x/sync/errgroup")
}

func TestAsync(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), probe, "use")
}
