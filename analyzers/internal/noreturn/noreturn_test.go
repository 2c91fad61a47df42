package noreturn_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/noreturn"
	"github.com/locklint/locklint/analyzers/internal/testutil"
)

// probe reports every call the package's Result says does not return.
var probe = &analysis.Analyzer{
	Name:     "probe",
	Doc:      "reports the calls that do not return by their callee's facts",
	Requires: []*analysis.Analyzer{noreturn.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[noreturn.Analyzer].(*noreturn.Result)
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && res.Exits(call) {
					pass.Reportf(call.Pos(), "exits")
				}
				return true
			})
		}
		return nil, nil
	},
}

func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), noreturn.Analyzer, "exc", "helpers")
}

func TestExits(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), probe, "use")
}
