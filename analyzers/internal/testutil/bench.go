package testutil

import (
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

// BenchRule runs rule over the named packages of an analyzer's testdata
// beside the shared lifecycle pass alone, as two sub-benchmarks, so the
// difference is the rule's own cost. Loading and type-checking are outside
// the timer; each run reports the number of diagnostics.
func BenchRule(b *testing.B, rule *analysis.Analyzer, patterns ...string) {
	root := GOPATH(b, "testdata")
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  root,
		Env:  append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOWORK=off"),
	}, patterns...)
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("test packages have errors")
	}
	for _, a := range []*analysis.Analyzer{lifecycle.Analyzer, rule} {
		b.Run(a.Name, func(b *testing.B) {
			diags := 0
			for b.Loop() {
				res, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
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
