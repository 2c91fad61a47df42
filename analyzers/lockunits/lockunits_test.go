package lockunits_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockunits"
)

func TestLockUnits(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.RunWithSuggestedFixes(t, dir, lockunits.Analyzer, "units", "unitsv8", "unitsv7", "unitsv6", "unitshelper", "unitscaller", "radixlock")
	analysistest.Run(t, dir, lockunits.Analyzer, "unitsok", "unitslua", "unitswrap")
}
