package lockrelease_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockrelease"
)

// TestRadix: the same rule on mediocregopher/radix actions (v3 and v4).
func TestRadix(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), lockrelease.Analyzer, "radixlock")
}
