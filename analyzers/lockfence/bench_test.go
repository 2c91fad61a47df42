package lockfence_test

import (
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockfence"
)

// BenchmarkLockFence runs lockfence over its test packages beside the
// shared lifecycle pass alone, so the difference is the cost of sections,
// store-write summaries (on every dependency) and the fence checks.
// Loading and type-checking are outside the timer.
func BenchmarkLockFence(b *testing.B) {
	root := testutil.GOPATH(b, "testdata")
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  root,
		Env:  append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOWORK=off"),
	}, "fence", "jobs")
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("test packages have errors")
	}
	for _, bc := range []struct {
		name string
		a    *analysis.Analyzer
	}{{"lifecycle", lifecycle.Analyzer}, {"lockfence", lockfence.Analyzer}} {
		b.Run(bc.name, func(b *testing.B) {
			diags := 0
			for b.Loop() {
				res, err := checker.Analyze([]*analysis.Analyzer{bc.a}, pkgs, nil)
				if err != nil {
					b.Fatal(err)
				}
				diags = 0
				for _, act := range res.Roots {
					if act.Err != nil {
						b.Fatal(act.Err)
					}
					diags += len(act.Diagnostics)
				}
			}
			b.ReportMetric(float64(diags), "diags")
		})
	}
}
