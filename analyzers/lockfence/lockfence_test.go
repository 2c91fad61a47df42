package lockfence_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockfence"
)

func TestLockFence(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.Run(t, dir, lockfence.Analyzer, "fence", "jobs", "chains", "shopstock", "walletapp", "walletapp2", "esim/job", "esim/sched", "objstore", "gamesvc", "payouts", "tiersvc", "ledger", "zlogic", "zpay")
}

// TestSharedHelperWrite checks that a report at the call of a helper
// several sections share names, as related information, the line where
// the helper writes.
func TestSharedHelperWrite(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	results := analysistest.Run(t, dir, lockfence.Analyzer, "sharedwrite")
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			found := false
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "the write lands here") && r.Pass.Fset.Position(rel.Pos).Line == 24 {
					found = true
				}
			}
			if !found {
				t.Errorf("%v: %s: no related information at the helper's write (line 24): %+v", r.Pass.Fset.Position(d.Pos), d.Message, d.Related)
			}
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d reports, want 2", n)
	}
}
