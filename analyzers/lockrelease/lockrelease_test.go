package lockrelease_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockrelease"
)

func TestLockRelease(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.RunWithSuggestedFixes(t, dir, lockrelease.Analyzer, "release", "mutex", "locker", "app", "billing", "shapes", "optuser", "jobs", "handle", "cacheuser", "gfseat", "nscache", "nsuser", "nslock", "rdbhelp", "gozero", "seats", "nsvote", "cronjobs", "claims", "chains", "prefixed", "radixlock", "claimhelpers", "cachelib", "rmlock", "kvadapteruser", "gfv1lock", "rebuilt", "unlockfn", "slots")
}

func TestBrokenCode(t *testing.T) {
	testutil.RunBroken(t, lockrelease.Analyzer)
}
