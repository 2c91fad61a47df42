package testutil

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// BrokenPackages are shared testdata packages that do not type-check
// (broken/typeerr) or parse (broken/syntax).
var BrokenPackages = []string{"broken/typeerr", "broken/syntax"}

// RunBroken runs a on the broken packages: it must not panic, and it must
// report nothing, since the code that does type-check holds no lock defect
// (none of the files carries a // want comment).
func RunBroken(t *testing.T, a *analysis.Analyzer) {
	t.Helper()
	if !a.RunDespiteErrors {
		t.Fatalf("%s: RunDespiteErrors is false; drivers would skip broken packages silently", a.Name)
	}
	analysistest.Run(t, GOPATH(t), a, BrokenPackages...)
}
