package lockresult

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

// keptByHelper reports whether a dropped acquire is a call of a helper of
// this package that keeps its outcome (keepsOutcome).
func (r *runner) keptByHelper(fd *ast.FuncDecl, a *acquire) bool {
	if a.cmd != nil || a.lib {
		return false
	}
	fn, _ := typeutil.Callee(r.pass.TypesInfo, a.call).(*types.Func)
	return fn != nil && r.keepsOutcome(fd, fn)
}

// keepsOutcome reports whether helper, a function of this package whose
// bool fd drops, keeps its outcome in a field (keepsStatus) while fd
// only keeps the lock up (upkeepOnly).
func (r *runner) keepsOutcome(fd *ast.FuncDecl, helper *types.Func) bool {
	h := r.declOf(helper)
	return h != nil && keepsStatus(r.pass.TypesInfo, h) && r.upkeepOnly(fd, helper)
}

// upkeepOnly reports whether fd, which drops the bool of helper (a method
// that keeps its outcome in a field: isLeader.Store(ok)), does nothing
// but keep the lock up: it calls the helper, its own object's methods
// that in turn only keep the lock up (a renewal loop started with go),
// and time, context, sync and logging. Such a function (an elector's
// Start, its ticker loop) has no section to run unlocked; whoever works
// asks the object (IsLeader) where the outcome is kept.
func (r *runner) upkeepOnly(fd *ast.FuncDecl, helper *types.Func) bool {
	return r.upkeepBody(fd, helper, map[*ast.FuncDecl]bool{})
}

func (r *runner) upkeepBody(fd *ast.FuncDecl, helper *types.Func, seen map[*ast.FuncDecl]bool) bool {
	if fd.Body == nil || seen[fd] {
		return fd.Body != nil
	}
	seen[fd] = true
	info := r.pass.TypesInfo
	obj := receiverVar(info, fd)
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false // a closure may be the work
		case *ast.CallExpr:
			ok = r.upkeepCall(n, obj, helper, seen)
		}
		return ok
	})
	return ok
}

// upkeepCall reports whether call, in a function whose receiver is obj,
// only keeps the lock up.
func (r *runner) upkeepCall(call *ast.CallExpr, obj *types.Var, helper *types.Func, seen map[*ast.FuncDecl]bool) bool {
	info := r.pass.TypesInfo
	if tv, found := info.Types[call.Fun]; found && (tv.IsType() || tv.IsBuiltin()) {
		return true
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return false // a func value: a callback that may work
	}
	if fn.Origin() == helper {
		return true
	}
	if fn.Pkg() == nil {
		return true // error.Error
	}
	switch fn.Pkg().Path() {
	case "context", "time", "sync", "sync/atomic", "log", "log/slog", "errors", "fmt":
		return true
	}
	if logMethod(fn) {
		return true
	}
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel || obj == nil {
		return false
	}
	if id, isID := ast.Unparen(sel.X).(*ast.Ident); isID && info.Uses[id] == obj {
		decl := r.declOf(fn)
		return decl != nil && r.upkeepBody(decl, helper, seen)
	}
	return false
}

// receiverVar returns fd's receiver variable, or nil.
func receiverVar(info *types.Info, fd *ast.FuncDecl) *types.Var {
	if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
		return nil
	}
	v, _ := info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	return v
}

// logMethod reports whether fn belongs to a logging package (zerolog's
// event chain, logrus, zap), judged by the last element of its path
// without a major-version suffix.
func logMethod(fn *types.Func) bool {
	elems := strings.Split(fn.Pkg().Path(), "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	return logPkgs[last]
}

var logPkgs = map[string]bool{
	"log": true, "slog": true, "zerolog": true, "logrus": true, "zap": true, "glog": true, "klog": true,
	"logger": true, "logging": true, "logx": true, "logs": true, "zlog": true, "xlog": true,
}

// declOf returns the declaration of fn in this package, or nil.
func (r *runner) declOf(fn *types.Func) *ast.FuncDecl {
	if r.decls == nil {
		r.decls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range r.pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if def, ok := r.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						r.decls[def] = fd
					}
				}
			}
		}
	}
	return r.decls[fn.Origin()]
}

// readBack reports whether fd, after the acquire op, reads the key back
// with GET and compares what it read with the value the acquire stored
// (SET NX, then val, _ := GET; if val != nodeID { return }): a refused
// acquire reads another holder's value, so the outcome is checked there,
// with one more round trip.
func (r *runner) readBack(fd *ast.FuncDecl, op *lifecycle.Op) bool {
	if op == nil || op.Value == nil || op.Lock() == nil {
		return false
	}
	info := r.pass.TypesInfo
	value := types.ExprString(op.Value)
	if tv, ok := info.Types[op.Value]; ok && tv.Value != nil {
		return false // a constant is every holder's: reading it back proves nothing
	}
	for _, o := range op.Lock().Ops {
		if o.Kind != lifecycle.Read || o.In.Decl != fd || o.Pos() < op.Pos() || o.Call == nil {
			continue
		}
		read := readInto(info, fd.Body, o.Call)
		if read == nil {
			continue
		}
		compared := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			be, ok := n.(*ast.BinaryExpr)
			if !ok || compared || be.Pos() < o.Pos() || be.Op != token.EQL && be.Op != token.NEQ {
				return !compared
			}
			for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
				if id, ok := ast.Unparen(pair[0]).(*ast.Ident); ok && info.Uses[id] == read && types.ExprString(ast.Unparen(pair[1])) == value {
					compared = true
				}
			}
			return !compared
		})
		if compared {
			return true
		}
	}
	return false
}

// readInto returns the variable the first result of the call chain
// starting at call is assigned to (val, err := rdb.Get(ctx, k).Result()).
func readInto(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr) types.Object {
	var out types.Object
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || out != nil {
			return out == nil
		}
		if len(as.Rhs) == 1 && len(as.Lhs) > 0 && as.Rhs[0].Pos() <= call.Pos() && call.End() <= as.Rhs[0].End() {
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
				out = info.ObjectOf(id)
			}
		}
		return out == nil
	})
	return out
}
