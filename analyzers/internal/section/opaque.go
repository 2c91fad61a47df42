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
