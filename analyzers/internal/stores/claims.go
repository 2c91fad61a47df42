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
		} else if w.via != nil && w.via.RefusesByError {
			// A repository's versioned UPDATE that answers "no row
			// changed" with an error: if err := repo.Update(...); err !=
			// nil { return err } is the row-count test, made inside.
			if is := errorTest(info, fn, w.Call); is != nil {
				out = append(out, Claim{fn, is.End()})
			}
		}
	}
	return out
}

// refusesByError reports whether fd, after its self-guarded write call,
// tests the rows it changed and returns an error when it changed none
// (if tag.RowsAffected() == 0 { return ErrVersionConflict }).
func refusesByError(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) bool {
	_, end := rowCountTest(info, fd, fd, call)
	if !end.IsValid() {
		return false
	}
	var test *ast.IfStmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if is, ok := n.(*ast.IfStmt); ok && is.End() == end {
			test = is
		}
		return test == nil
	})
	return test != nil && returnsError(info, fd, test.Body)
}

// passesErrorOn reports whether fd returns an error when call, a helper
// that refuses by error, fails (if err := h(); err != nil { return err }).
func passesErrorOn(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) bool {
	is := errorTest(info, fd, call)
	return is != nil && returnsError(info, fd, is.Body)
}

// returnsError reports whether body ends by returning a non-nil last
// result of fd's type error.
func returnsError(info *types.Info, fd *ast.FuncDecl, body *ast.BlockStmt) bool {
	sig, _ := info.TypeOf(fd.Name).(*types.Signature)
	if sig == nil {
		if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
			sig, _ = obj.Type().(*types.Signature)
		}
	}
	if sig == nil || sig.Results().Len() == 0 || len(body.List) == 0 {
		return false
	}
	if !types.Identical(sig.Results().At(sig.Results().Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	ret, ok := body.List[len(body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	tv, ok := info.Types[ret.Results[len(ret.Results)-1]]
	return ok && !tv.IsNil()
}

// errorTest returns the if statement in fn that tests the error call
// returns (if err := call; err != nil, or err = call then if err != nil)
// and leaves in its body, or nil.
func errorTest(info *types.Info, fn ast.Node, call *ast.CallExpr) *ast.IfStmt {
	var errVar types.Object
	assigns := func(st ast.Stmt) bool {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != call || len(as.Lhs) == 0 {
			return false
		}
		id, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
		if !ok {
			return false
		}
		errVar = info.ObjectOf(id)
		return errVar != nil && types.Identical(errVar.Type(), types.Universe.Lookup("error").Type())
	}
	tests := func(is *ast.IfStmt) bool {
		be, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.NEQ {
			return false
		}
		x, y := be.X, be.Y
		if tv, ok := info.Types[x]; ok && tv.IsNil() {
			x, y = y, x
		}
		id, ok := ast.Unparen(x).(*ast.Ident)
		tv, nilOK := info.Types[y]
		return ok && info.Uses[id] == errVar && nilOK && tv.IsNil() && section.Returns(is.Body)
	}
	var found *ast.IfStmt
	ast.Inspect(section.FuncBody(fn), func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if n.Init != nil && assigns(n.Init) && tests(n) {
				found = n
			}
		case *ast.BlockStmt:
			for i, st := range n.List {
				if i+1 < len(n.List) && assigns(st) {
					if is, ok := n.List[i+1].(*ast.IfStmt); ok && is.Init == nil && tests(is) {
						found = is
					}
				}
			}
		}
		return found == nil
	})
	return found
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
