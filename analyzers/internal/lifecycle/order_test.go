package lifecycle

import (
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestBeforeIgnoresFileSetOrder: ops of one lock in several files are
// ordered by file name, then offset, whatever order the loader added the
// files to the file set in (go/packages parses in parallel, so that order
// changes from run to run, and with it the acquire a report cites).
func TestBeforeIgnoresFileSetOrder(t *testing.T) {
	fset := token.NewFileSet()
	b2 := fset.AddFile("/p/v2_lock.go", -1, 100) // added first: lower token.Pos
	b1 := fset.AddFile("/p/v1-lock.go", -1, 100)
	b := &builder{pass: &analysis.Pass{Fset: fset}}
	inV1, inV2 := b1.Pos(50), b2.Pos(10)
	if !b.before(inV1, inV2) || b.before(inV2, inV1) {
		t.Errorf("v1-lock.go:50 should come before v2_lock.go:10 whatever the file set's order")
	}
	if !b.before(b2.Pos(10), b2.Pos(20)) || b.before(b2.Pos(20), b2.Pos(10)) {
		t.Errorf("positions in one file should keep their order")
	}
}
