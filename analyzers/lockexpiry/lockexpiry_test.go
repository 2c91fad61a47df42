package lockexpiry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockexpiry"
)

func TestLockExpiry(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.RunWithSuggestedFixes(t, dir, lockexpiry.Analyzer, "expiry", "jobs", "service", "kvlock", "ttluser", "gfseat", "gozero", "getset", "cronjobs", "radixlock", "hashlock")
}

func TestBrokenCode(t *testing.T) {
	testutil.RunBroken(t, lockexpiry.Analyzer)
}
