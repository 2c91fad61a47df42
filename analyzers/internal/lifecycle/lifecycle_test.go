package lifecycle_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/testutil"
)

// dump reports each lock lifecycle at its first acquire, so the tests can
// check the model with // want comments.
var dump = &analysis.Analyzer{
	Name:     "dump",
	Doc:      "reports lock lifecycles",
	Requires: []*analysis.Analyzer{lifecycle.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
		for _, l := range res.Locks {
			var parts []string
			for _, op := range l.Ops {
				s := op.Kind.String()
				if op.Checked {
					s += " checked"
				}
				if op.Via != nil {
					s += " via " + op.Via.Pkg().Name() + "." + op.Via.Name()
				}
				parts = append(parts, s)
			}
			pass.Reportf(l.Acquires[0].Pos(), "lock %s: %s", l.Key.Shape, strings.Join(parts, "; "))
		}
		return nil, nil
	},
}

func TestModel(t *testing.T) {
	dir := testutil.GOPATH(t, "testdata")
	analysistest.Run(t, dir, lifecycle.Analyzer, "locker")
	analysistest.Run(t, dir, dump, "model")
}

// evidence reports whether each lock lifecycle is judged a lock or data.
var evidence = &analysis.Analyzer{
	Name:     "evidence",
	Doc:      "reports Lock.IsLock",
	Requires: []*analysis.Analyzer{lifecycle.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
		for _, l := range res.Locks {
			verdict := "data"
			if l.IsLock(pass) {
				verdict = "lock"
			}
			pass.Reportf(l.Acquires[0].Pos(), "%s", verdict)
		}
		return nil, nil
	},
}

func TestIsLock(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), evidence, "evidence", "idempotent")
}

func TestSplitWords(t *testing.T) {
	for name, want := range map[string]string{
		"LockDel":       "lock del",
		"unlock_all":    "unlock all",
		"HTTPLock":      "http lock",
		"model":         "model",
		"releaseLock2x": "release lock x",
		"DelLOCK":       "del lock",
	} {
		if got := strings.Join(lifecycle.SplitWords(name), " "); got != want {
			t.Errorf("splitWords(%q) = %q, want %q", name, got, want)
		}
	}
}
