package section

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/locklib"
)

// opaqueCalls finds calls in fd that receive the lock — its key (raw
// locks) or its handle (library locks) — and whose effect on it is
// unknown: for raw locks a call of a func value or an interface method
// the lifecycle model could not resolve; for library locks any call other
// than the library's own methods. Such a call may release or renew the
// lock, so a non-deferred one ends the section there (Releases), and any
// of them sets RenewUnknown.
func (b *builder) opaqueCalls(lk *Lock, fn ast.Node, fd *ast.FuncDecl) (stops []*ast.CallExpr) {
	info := b.pass.TypesInfo
	known := map[*ast.CallExpr]bool{}
	for _, op := range b.lc.Funcs[fd] {
		known[op.Call] = true
	}
	var env *keyexpr.Env
	if lk.Lib == locklib.Raw {
		env = b.lc.Env(fd)
	}
	ast.Inspect(fd, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() < lk.Acquire.End() || known[call] {
			return true
		}
		if !b.receivesLock(lk, env, call) {
			return true
		}
		if _, builtin := typeutil.Callee(info, call).(*types.Builtin); builtin {
			// append(held, m) keeps the handle in a slice: what is done
			// to the slice is done to it (heldSlice). No other builtin
			// can release a lock.
			if held := b.appendedTo(call); held != nil {
				stops = append(stops, b.heldSlice(lk, held, fn, fd)...)
			}
			return true
		}
		if lk.Lib == locklib.Raw {
			callee, _ := typeutil.Callee(info, call).(*types.Func)
			if callee != nil && !isAbstract(callee) {
				return true // a concrete function: its lifecycle facts say what it does
			}
		} else if locklib.Classify(info, call) != nil || calleePath(info, call) == locklib.FencePath {
			return true // the library itself, or a fence helper that reads the lease's fence
		}
		lk.RenewUnknown = true
		if !b.inDefer(call, fd) && !b.inGo(call, fd) {
			if f, _ := b.funcOf(call); f == fn {
				stops = append(stops, call)
			}
		}
		return true
	})
	return stops
}

// receivesLock reports whether one of call's arguments is the lock's key
// (raw) or handle (library).
func (b *builder) receivesLock(lk *Lock, env *keyexpr.Env, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if env != nil {
			if lk.Key.Known() && keyexpr.Same(env.Of(a), lk.Key, true) {
				return true
			}
		} else if b.sameHandle(lk, a) {
			return true
		}
	}
	return false
}

// inGo reports whether n runs in a goroutine started in fn.
func (b *builder) inGo(n ast.Node, fn ast.Node) bool {
	for p := b.parent[n]; p != nil && p != fn; p = b.parent[p] {
		if _, ok := p.(*ast.GoStmt); ok {
			return true
		}
	}
	return false
}

// isAbstract reports whether fn is an interface method.
func isAbstract(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

func calleePath(info *types.Info, call *ast.CallExpr) string {
	if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil && fn.Pkg() != nil {
		return fn.Pkg().Path()
	}
	return ""
}

// appendedTo returns the variable of held = append(held, ...), or nil.
func (b *builder) appendedTo(call *ast.CallExpr) *types.Var {
	as, ok := b.parent[call].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != call || len(call.Args) == 0 {
		return nil
	}
	lhs, ok1 := ast.Unparen(as.Lhs[0]).(*ast.Ident)
	arg, ok2 := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok1 || !ok2 {
		return nil
	}
	v, _ := b.pass.TypesInfo.ObjectOf(lhs).(*types.Var)
	if v == nil || b.pass.TypesInfo.ObjectOf(arg) != v {
		return nil
	}
	return v
}

// heldSlice finds where a slice that holds lock handles (held = append(held,
// m)) gives them up, for a library lock: a range over it whose body calls
// or passes on its element (for _, m := range held { m.Unlock() }) does,
// from the range's start (rangeReleases), and any other call that
// receives the slice may (RenewUnknown). Those not deferred or in a
// goroutine end the section.
func (b *builder) heldSlice(lk *Lock, held *types.Var, fn ast.Node, fd *ast.FuncDecl) (stops []*ast.CallExpr) {
	info := b.pass.TypesInfo
	isHeld := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == held
	}
	// stop ends the section at call unless it is deferred, in a
	// goroutine or in another function literal, and says whether it did.
	stop := func(call *ast.CallExpr) bool {
		if b.inDefer(call, fd) || b.inGo(call, fd) {
			return false
		}
		if f, _ := b.funcOf(call); f != fn {
			return false
		}
		stops = append(stops, call)
		return true
	}
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			if !isHeld(n.X) || n.Value == nil {
				return true
			}
			id, ok := n.Value.(*ast.Ident)
			if !ok {
				return true
			}
			elem := info.ObjectOf(id)
			ast.Inspect(n.Body, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok {
					return true
				}
				uses := false
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[x] == elem {
						uses = true
					}
				}
				for _, a := range call.Args {
					if x, ok := ast.Unparen(a).(*ast.Ident); ok && info.Uses[x] == elem {
						uses = true
					}
				}
				if uses && stop(call) {
					if b.rangeReleases == nil {
						b.rangeReleases = map[*ast.CallExpr]*ast.RangeStmt{}
					}
					b.rangeReleases[call] = n
				}
				return true
			})
		case *ast.CallExpr:
			if _, builtin := typeutil.Callee(info, n).(*types.Builtin); builtin {
				return true
			}
			for _, a := range n.Args {
				if isHeld(a) {
					lk.RenewUnknown = true
					stop(n)
					break
				}
			}
		}
		return true
	})
	return stops
}
