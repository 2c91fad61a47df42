package lockrenew_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockrenew"
)

// TestRadix: the same rule on the radix clients (v2 commands, v3 and v4
// actions) and on rueidiscompat, go-redis's API over rueidis.
func TestRadix(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), lockrenew.Analyzer, "radixlock")
}
