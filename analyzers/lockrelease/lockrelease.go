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
)

//go:embed doc.go
var doc string

// Analyzer reports lock keys deleted without an atomic ownership check.
var Analyzer = &analysis.Analyzer{
	Name:             "lockrelease",
	Doc:              docs.Extract(doc, "lockrelease"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/lockrelease/doc.go",
	Requires:         []*analysis.Analyzer{lifecycle.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	seen := map[token.Pos]bool{}
	for _, l := range res.Locks {
		if !l.IsLock(pass) {
			continue // a record, marker or flag written with NX: deleting it is the design
		}
		acq := l.Acquires[0]
		for _, op := range l.Ops {
			// GETDEL consumes a value (one-time codes, nonces): not a release,
			// unless a GET of the key came first to check its owner.
			if op.Kind != lifecycle.Delete || op.Command == "GETDEL" && op.ReadBefore == nil || op.Checked || op.Judged || seen[op.Site.Pos()] || lifecycle.IsTestFile(pass.Fset, op.Pos()) {
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
	return nil, nil
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
