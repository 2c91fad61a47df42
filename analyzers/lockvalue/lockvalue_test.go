package lockvalue_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockvalue"
)

func TestLockValue(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.RunWithSuggestedFixes(t, dir, lockvalue.Analyzer, "value", "mutex", "tokens", "lockutil", "lockhelp", "app", "store", "goid", "shapes", "clienttoken", "jsonuser", "clock", "clockuser", "gozero", "getset", "cronjobs", "gtimevalue", "rawclientuser", "injectedclock", "radixlock", "elector", "ownerlock", "ownerlockuser", "hostowner", "configdefault", "hostaddr")
}
