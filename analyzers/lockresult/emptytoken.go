package lockresult

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// emptyTokenFact describes fd when it hands its caller the token its
// acquire stored and tells a lock it did not get only by an empty token:
//
//	func (l *Locker) Grab(...) (string, error) {
//		value := random()
//		for { ... SET key value NX ...; if time.Since(start) > retry { return "", nil } }
//		return value, nil
//	}
//
// The failure comes with a nil error, so a caller that checks only the
// error runs the section without the lock. nil when fd is not so shaped:
// (string, error) results, a token made in fd and stored by the acquire,
// returned with a nil error, and a constant "" returned with a nil error
// after the acquire.
func emptyTokenFact(info *types.Info, fd *ast.FuncDecl, a *acquire) *AcquireFact {
	if a.cmd == nil || a.cmd.Value == nil || fd.Type.Results == nil {
		return nil
	}
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return nil
	}
	results := fn.Type().(*types.Signature).Results()
	if results.Len() != 2 {
		return nil
	}
	strAt, errAt := -1, -1
	for i := 0; i < 2; i++ {
		switch t := results.At(i).Type(); {
		case types.Identical(t, types.Universe.Lookup("error").Type()):
			errAt = i
		case isStringType(t):
			strAt = i
		}
	}
	if strAt < 0 || errAt < 0 {
		return nil
	}
	id, ok := ast.Unparen(a.cmd.Value).(*ast.Ident)
	if !ok {
		return nil
	}
	token, ok := info.Uses[id].(*types.Var)
	if !ok || !within(fd.Body, token.Pos()) {
		return nil // a parameter (the caller has the token) or not a local
	}
	var returnsToken, returnsEmpty bool
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 2 || !isNilValue(info, n.Results[errAt]) {
				return true
			}
			s := ast.Unparen(n.Results[strAt])
			if id, ok := s.(*ast.Ident); ok && info.Uses[id] == token {
				returnsToken = true
			}
			if tv, ok := info.Types[s]; ok && tv.Value != nil && tv.Value.Kind() == constant.String &&
				constant.StringVal(tv.Value) == "" && n.Pos() > a.call.Pos() {
				returnsEmpty = true
			}
		}
		return true
	})
	if !returnsToken || !returnsEmpty {
		return nil
	}
	return &AcquireFact{Signal: int(byValue), OkAt: -1, ReplyAt: -1, HandleAt: strAt, ErrAt: errAt, EmptyToken: true}
}

func within(n ast.Node, pos token.Pos) bool { return n.Pos() <= pos && pos < n.End() }

func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

func isNilValue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// tokenLooked reports whether v, the token of an empty-token wrapper,
// is looked at in body: compared (with "" or anything else), measured
// with len, or switched on. Passing it on (to a release) does not count.
func tokenLooked(info *types.Info, body ast.Node, v *types.Var) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (is(n.X) || is(n.Y)) {
				found = true
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "len" && len(n.Args) == 1 && is(n.Args[0]) {
				if _, builtin := info.Uses[id].(*types.Builtin); builtin {
					found = true
				}
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && is(n.Tag) {
				found = true
			}
		}
		return !found
	})
	return found
}
