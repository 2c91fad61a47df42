package lockrenew_test

import (
	"testing"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockrenew"
)

// BenchmarkLockRenew runs lockrenew over its test packages beside the
// shared lifecycle pass alone, so the difference is lockrenew's own cost
// (renewal checks, fixes). Loading and type-checking are outside the timer.
func BenchmarkLockRenew(b *testing.B) {
	testutil.BenchRule(b, lockrenew.Analyzer, "renew", "worker", "app", "store")
}
