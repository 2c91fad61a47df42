package lockresult_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockresult"
)

func TestLockResult(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.Run(t, dir, lockresult.Analyzer, "result", "resultlib", "ports", "resultold", "resultok", "resultwrap/locker", "resultwrap/app", "resultwrap/grab", "resultwrap/grabber", "resultmutex", "failopen", "failopenerr", "failopengf", "failopenincr", "nsuser", "gozero", "cronjobs", "runsanyway/cache", "runsanyway", "resultuser", "failopennil", "plainset", "scriptreply", "radixlock", "failsilent")
}
