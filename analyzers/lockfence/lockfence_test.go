package lockfence_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockfence"
)

func TestLockFence(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.Run(t, dir, lockfence.Analyzer, "fence", "jobs", "chains", "shopstock", "walletapp", "walletapp2", "esim/job", "esim/sched", "objstore", "gamesvc", "payouts", "tiersvc", "ledger", "zlogic")
}
