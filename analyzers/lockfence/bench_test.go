package lockfence_test

import (
	"testing"

	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockfence"
)

// BenchmarkLockFence runs lockfence over its test packages beside the
// shared lifecycle pass alone, so the difference is the cost of sections,
// store-write summaries (on every dependency) and the fence checks.
// Loading and type-checking are outside the timer.
func BenchmarkLockFence(b *testing.B) {
	testutil.BenchRule(b, lockfence.Analyzer, "fence", "jobs")
}
