package lockrelease

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/docs"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/section"
)

//go:embed doc.go
var doc string

// Analyzer reports lock keys deleted without an atomic ownership check.
var Analyzer = &analysis.Analyzer{
	Name:             "lockrelease",
	Doc:              docs.Extract(doc, "lockrelease"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/lockrelease/doc.go",
	Requires:         []*analysis.Analyzer{lifecycle.Analyzer, section.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	failed := failedReleases(pass)
	seen := map[token.Pos]bool{}
	for _, l := range res.Locks {
		if !l.IsLock(pass) {
			continue // a record, marker or flag written with NX: deleting it is the design
		}
		acq := l.Acquires[0]
		for _, op := range l.Ops {
			// GETDEL consumes a value (one-time codes, nonces): not a release,
			// unless a GET of the key came first to check its owner.
			if op.Kind != lifecycle.Delete || op.Command == "GETDEL" && op.ReadBefore == nil || op.Checked || lifecycle.IsTestFile(pass.Fset, op.Pos()) {
				continue
			}
			if f := failed[op]; f != nil && !forced(op) {
				// Reported where it is called, also when the helper was
				// judged in its own package: this call deletes a lock it
				// never had.
				if !seen[op.Call.Pos()] {
					seen[op.Call.Pos()] = true
					pass.Report(analysis.Diagnostic{
						Pos: op.Call.Pos(), End: op.Call.End(),
						Message: fmt.Sprintf("lock %s is deleted with %s on the path where acquiring it failed: "+
							"this caller does not hold the lock there, so the key, if present, may be another holder's lock, and this deletes it; "+
							"release only a lock this caller holds, with its token (safelock.ReleaseKey)", op.KeyText(), op.Describe()),
						Related: []analysis.RelatedInformation{{Pos: f.Pos(), End: f.End(), Message: "the acquire that failed"}},
					})
				}
				continue
			}
			if op.Judged || seen[op.Site.Pos()] {
				continue
			}
			seen[op.Site.Pos()] = true
			if forced(op) {
				continue // ForceUnlock: breaking whoever holds the lock is what it is for
			}
			d := analysis.Diagnostic{
				Related: []analysis.RelatedInformation{{Pos: acq.Pos(), End: acq.Call.End(), Message: "lock acquired with " + acq.Command + " here"}},
			}
			d.Pos, d.End = op.ReportAt()
			if !op.AtSite() {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: op.Pos(), End: op.Call.End(), Message: "reached from this call of " + lifecycle.FuncName(op.Via)})
			}
			switch {
			case op.ReadBefore != nil:
				d.Message = fmt.Sprintf("lock %s is read with GET and then deleted with a separate %s: "+
					"the lock can expire and pass to another holder between the two round trips, and this deletes their lock; "+
					"release atomically with safelock.ReleaseKey", op.KeyText(), op.DescribeAtSite())
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: op.ReadBefore.Pos(), End: op.ReadBefore.Call.End(), Message: "GET here"})
			case op.Command == "EVAL" || op.Command == "EVALSHA":
				d.Message = fmt.Sprintf("the Lua script%s deletes lock %s without comparing its value with the holder's token: "+
					"after the lock expires and another process takes it, this deletes their lock; "+
					"compare before deleting, as safelock.ReleaseScript does", op.WhereAtSite(), op.KeyText())
			default:
				d.Message = fmt.Sprintf("lock %s is deleted with %s without checking that this holder still owns it: "+
					"if the lock expired and another process acquired it, this deletes their lock and two holders run at once; "+
					"release with safelock.ReleaseKey (compare-and-delete)", op.KeyText(), op.DescribeAtSite())
			}
			if op.Direct() && op.ReadBefore == nil {
				d.SuggestedFixes = releaseFix(pass, res, l, op)
			}
			pass.Report(d)
		}
	}
	reportSharedSlots(pass, res, seen)
	return nil, nil
}

// failedReleases maps the deletes of a raw lock made in the branch its
// acquire takes on failure (if err != nil { unlock(key) }) to that
// acquire.
func failedReleases(pass *analysis.Pass) map[*lifecycle.Op]*ast.CallExpr {
	out := map[*lifecycle.Op]*ast.CallExpr{}
	for _, s := range pass.ResultOf[section.Analyzer].(*section.Result).Sections {
		acq := s.Lock.Op
		if acq == nil || acq.Lock() == nil {
			continue
		}
		var spans []ast.Node
		if s.Failure != nil {
			spans = append(spans, s.Failure)
		}
		for _, st := range s.FailureAfter {
			spans = append(spans, st)
		}
		for _, op := range acq.Lock().Ops {
			if op.Kind != lifecycle.Delete || op.Checked || otherInstance(acq, op) {
				continue
			}
			for _, sp := range spans {
				if sp.Pos() <= op.Call.Pos() && op.Call.End() <= sp.End() && !inFuncLit(sp, op.Call) {
					out[op] = s.Lock.Acquire
				}
			}
		}
	}
	return out
}

// otherInstance reports whether a delete in the acquire's own function
// names another key of the same lock family (the keys taken before a
// refused one, given back in a loop: unlock(h) for h in held): the
// refused key itself is left alone.
func otherInstance(acq, op *lifecycle.Op) bool {
	return op.In.Decl == acq.In.Decl && op.In.Lit == acq.In.Lit &&
		op.Key.Known() && acq.Key.Known() && op.Key.Exact != acq.Key.Exact
}

// inFuncLit reports whether call lies in a function literal inside n
// (a deferred or spawned func: not run on the path itself).
func inFuncLit(n ast.Node, call *ast.CallExpr) bool {
	in := false
	ast.Inspect(n, func(m ast.Node) bool {
		if lit, ok := m.(*ast.FuncLit); ok && lit.Pos() <= call.Pos() && call.End() <= lit.End() {
			in = true
		}
		return !in
	})
	return in
}

// forced reports whether the delete is in a function named as a forced
// release (ForceUnlock, forceRelease): an administrative override that
// removes the lock whoever holds it, on purpose.
func forced(op *lifecycle.Op) bool {
	return op.In.Decl != nil && strings.HasPrefix(strings.ToLower(op.In.Decl.Name.Name), "force")
}

// isString reports whether e has type string.
func isString(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}
