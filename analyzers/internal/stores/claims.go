package stores

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/locklint/locklint/analyzers/internal/section"
)

// A self-guarded write whose affected-row count is tested, with a way
// out when it is zero (res := tx.Where("no = ? AND status = ?", no,
// "pending").Update("status", "cancelled"); if res.RowsAffected == 0 {
// return }), claims the row: the writes after that test run only for the
// caller that moved the row on, once, however many holders the lock had.

// Claim is the end of such a test, in function fn.
type Claim struct {
	fn    ast.Node
	after token.Pos
}

// Claims returns the claims that writes, found within root, make.
func Claims(info *types.Info, root ast.Node, writes []*Write) []Claim {
	var out []Claim
	for _, w := range writes {
		if !w.SelfGuarded() {
			continue
		}
		fn := section.EnclosingFunc(root, w.Call.Pos())
		if fn == nil {
			continue
		}
		if cfn, end := rowCountTest(info, root, fn, w.Call); end.IsValid() {
			out = append(out, Claim{cfn, end})
		}
	}
	return out
}

// Claimed reports whether w runs after one of the claims, in the same
// function, or is a helper's write that runs after a claim the helper
// made.
func Claimed(root ast.Node, cs []Claim, w *Write) bool {
	if w.via != nil && w.via.Claimed {
		return true
	}
	return claimedAt(root, cs, w.Call.Pos())
}

// A write after the test in the claim's function, also inside a
// function literal made there after it (a transaction's callback), runs
// after the test.
func claimedAt(root ast.Node, cs []Claim, pos token.Pos) bool {
	for _, c := range cs {
		if c.fn.Pos() <= pos && pos < c.fn.End() && pos > c.after {
			return true
		}
	}
	return false
}

// rowCountTest returns the end of the if in fn that tests the rows call
// affected (through the variable it is assigned to, or one assigned from
// its RowsAffected()) and leaves in its body, or token.NoPos. When fn is
// a function literal that only records the count in a variable of the
// function around it (inserted = tag.RowsAffected() > 0, in a
// transaction's callback), the test is looked for there, after the
// literal, and that function is returned.
func rowCountTest(info *types.Info, root, fn ast.Node, call *ast.CallExpr) (ast.Node, token.Pos) {
	vars := map[types.Object]bool{}
	holds := func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				found = found || n == call
			case *ast.Ident:
				found = found || vars[info.Uses[n]]
			}
			return !found
		})
		return found
	}
	rows := func(e ast.Node) bool { // e reads RowsAffected
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "RowsAffected" {
				found = true
			}
			return !found
		})
		return found
	}
	counts := map[types.Object]bool{} // n, _ := res.RowsAffected(); inserted = n > 0
	record := func(as *ast.AssignStmt) {
		if len(as.Rhs) != 1 || !holds(as.Rhs[0]) {
			return
		}
		count := rows(as.Rhs[0])
		ast.Inspect(as.Rhs[0], func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && counts[info.Uses[id]] {
				count = true
			}
			return !count
		})
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
				if obj := info.ObjectOf(id); obj != nil {
					vars[obj] = true
					if count {
						counts[obj] = true
					}
				}
			}
		}
	}
	end := token.NoPos
	test := func(body ast.Node, from token.Pos) {
		ast.Inspect(body, func(n ast.Node) bool {
			if end.IsValid() {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				record(n)
			case *ast.IfStmt:
				if n.Pos() < from {
					return true
				}
				if as, ok := n.Init.(*ast.AssignStmt); ok {
					record(as) // if n, _ := res.RowsAffected(); n == 0
				}
				tested := rows(n.Cond) && holds(n.Cond)
				ast.Inspect(n.Cond, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && counts[info.Uses[id]] {
						tested = true
					}
					return !tested
				})
				if tested && section.Returns(n.Body) {
					end = n.End()
				}
			}
			return true
		})
	}
	test(section.FuncBody(fn), call.End())
	if end.IsValid() {
		return fn, end
	}
	if _, ok := fn.(*ast.FuncLit); ok {
		for obj := range counts {
			if obj.Pos() >= fn.Pos() && obj.Pos() < fn.End() {
				continue // the literal's own variable
			}
			outer := section.EnclosingFunc(root, obj.Pos())
			if outer == nil || fn.Pos() < outer.Pos() || fn.End() > outer.End() {
				continue
			}
			test(section.FuncBody(outer), fn.End())
			if end.IsValid() {
				return outer, end
			}
		}
	}
	return fn, token.NoPos
}
