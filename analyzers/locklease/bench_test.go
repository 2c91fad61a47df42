package locklease_test

import (
	"testing"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/locklease"
)

// BenchmarkLockLease runs locklease over its test packages beside the
// shared lifecycle pass alone, so the difference is the cost of sections
// and the lease checks.
// Loading and type-checking are outside the timer.
func BenchmarkLockLease(b *testing.B) {
	testutil.BenchRule(b, locklease.Analyzer, "lease")
}
