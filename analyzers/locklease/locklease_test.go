package locklease_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/locklease"
)

func TestLockLease(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.Run(t, dir, locklease.Analyzer, "lease", "relay", "election", "objstore", "taskworker")
}
