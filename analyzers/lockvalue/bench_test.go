package lockvalue_test

import (
	"testing"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockvalue"
)

// BenchmarkLockValue runs lockvalue over its test packages beside the
// shared lifecycle pass alone, so the difference is lockvalue's own cost
// (tracing values, facts). Loading and type-checking are outside the timer.
func BenchmarkLockValue(b *testing.B) {
	testutil.BenchRule(b, lockvalue.Analyzer, "value", "mutex", "app", "store")
}
