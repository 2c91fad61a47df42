package lifecycle_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/testutil"
)

// discards reports, for every acquire, whether its result is read.
var discards = &analysis.Analyzer{
	Name:     "discards",
	Doc:      "reports whether acquire results are read",
	Requires: []*analysis.Analyzer{lifecycle.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
		for _, op := range res.Ops {
			if op.Kind != lifecycle.Acquire {
				continue
			}
			if lifecycle.Discarded(pass, op) {
				pass.Reportf(op.Pos(), "discarded")
			} else {
				pass.Reportf(op.Pos(), "used")
			}
		}
		return nil, nil
	},
}

func TestDiscarded(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), discards, "discard")
}
