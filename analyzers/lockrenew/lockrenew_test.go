package lockrenew_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockrenew"
)

func TestLockRenew(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.RunWithSuggestedFixes(t, dir, lockrenew.Analyzer, "renew", "worker", "app", "store", "elect", "subset", "nscache", "nsuser", "stock", "cacheapi", "radixlock")
}
