package section

import (
	"go/ast"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// Wait is a call in a section that keeps it running for a known time:
// time.Sleep, time.After, time.NewTimer; or a statement <-ctx.Done(),
// which keeps it running until ctx ends: for the constant timeout of a
// context.WithTimeout, or forever. A deadline that only bounds a call
// (a context with a timeout handed to a query, an http.Client's
// Timeout) is not a wait: the call may end at once.
type Wait struct {
	At   ast.Node
	What string // "time.Sleep(2m0s)"
	D    time.Duration
}

// forever is the duration of a wait with no bound.
const forever = time.Duration(1<<63 - 1)

// doneWait reads a statement that blocks until a context ends
// (<-ctx.Done() on its own: hold the lock until shutdown). A context the
// function gives a deadline is left out (a constant timeout is a wait of
// its own, at the WithTimeout); any other (a parameter, a context
// cancelled by hand) waits with no bound.
func doneWait(info *types.Info, st *ast.ExprStmt, deadlines map[types.Object]bool, timeouts map[types.Object]time.Duration) (Wait, bool) {
	recv, ok := ast.Unparen(st.X).(*ast.UnaryExpr)
	if !ok || recv.Op != token.ARROW {
		return Wait{}, false
	}
	call, ok := ast.Unparen(recv.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return Wait{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Done" || !isContextType(info.TypeOf(sel.X)) {
		return Wait{}, false
	}
	ctx := types.ExprString(sel.X)
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && deadlines[info.Uses[id]] {
		d, known := timeouts[info.Uses[id]]
		if !known {
			return Wait{}, false // a deadline the function does not show
		}
		return Wait{At: st, What: "<-" + ctx + ".Done(), which waits out its " + d.String() + " timeout,", D: d}, true
	}
	return Wait{At: st, What: "<-" + ctx + ".Done(), which waits until " + ctx + " is cancelled,", D: forever}, true
}

func isContextType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// Waits lists the section's waits whose duration is a constant, and
// waits until a context ends.
func (s *Section) Waits(info *types.Info, res *Result) []Wait {
	defs := res.Defs
	var out []Wait
	dur := func(e ast.Expr) (time.Duration, bool) { return Duration(info, defs, e, redismodel.UnitDuration) }
	// One walk of the function: contexts with a constant timeout
	// (timeouts: their <-ctx.Done() waits that long), contexts given any
	// deadline (deadlines: their <-ctx.Done() is bounded), select cases (a
	// select waits on its other cases too) and statements in goroutines
	// (they do not hold the section).
	timeouts := map[types.Object]time.Duration{}
	deadlines := map[types.Object]bool{}
	notWaits := map[ast.Stmt]bool{}
	ast.Inspect(s.Decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) != 1 || len(n.Lhs) == 0 {
				return true
			}
			call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
			id, isID := n.Lhs[0].(*ast.Ident)
			if !ok || !isID || info.ObjectOf(id) == nil {
				return true
			}
			ctx := info.ObjectOf(id)
			switch {
			case calleeIs(info, call, "context", "WithTimeout"):
				deadlines[ctx] = true
				if len(call.Args) == 2 {
					if d, ok := dur(call.Args[1]); ok {
						timeouts[ctx] = d
					}
				}
			case calleeIs(info, call, "context", "WithDeadline"):
				deadlines[ctx] = true
			}
		case *ast.CommClause:
			notWaits[n.Comm] = true
		case *ast.GoStmt:
			ast.Inspect(n.Call, func(m ast.Node) bool {
				if st, ok := m.(ast.Stmt); ok {
					notWaits[st] = true
				}
				return true
			})
		}
		return true
	})
	s.Inspect(func(n ast.Node) bool {
		if st, ok := n.(*ast.ExprStmt); ok {
			if w, ok := doneWait(info, st, deadlines, timeouts); ok && !notWaits[st] {
				out = append(out, w)
			}
			return true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			return true
		}
		name := fn.Pkg().Name() + "." + fn.Name()
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "time.Sleep", "time.After", "time.NewTimer":
			if len(call.Args) == 0 {
				return true
			}
			if d, ok := dur(call.Args[len(call.Args)-1]); ok {
				out = append(out, Wait{At: call, What: name + "(" + d.String() + ")", D: d})
			}
		}
		return true
	})
	return out
}
