package section_test

import (
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/section"
	"github.com/locklint/locklint/analyzers/internal/testutil"
)

// probe reports every call to a function named "held" that lies in a
// section, and every call to "free" that does (which it should not).
var probe = &analysis.Analyzer{
	Name:     "probe",
	Doc:      "reports calls to held/free inside critical sections",
	Requires: []*analysis.Analyzer{section.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[section.Analyzer].(*section.Result)
		for _, s := range res.Sections {
			s.Inspect(func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func); fn != nil && (fn.Name() == "held" || fn.Name() == "free") {
					ttl, ok := s.TTLValue(pass.TypesInfo, res.Defs)
					if !ok {
						ttl = -1
					}
					pass.Reportf(call.Pos(), "%s in %s ttl=%v", fn.Name(), s.Lock.Describe(), ttl)
				}
				return true
			})
		}
		return nil, nil
	},
}

func TestSections(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), probe, "regions")
}
