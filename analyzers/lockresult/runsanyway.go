package lockresult

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/section"
)

// runsAnyway returns a call in the failure branch fail of an if on the
// acquire's outcome that runs the work the lock guards: the same work
// that the code after the if runs when the acquire succeeded. Work is
// what the caller handed in: a call of a func-typed parameter (a
// callback, echo's or go-zero's next, a gRPC handler) or the middleware
// chain's continuation (gin's and fiber's Context.Next, net/http's
// ServeHTTP), called on the same variable in both places. Responses,
// logging and other calls that both paths make are not the work; nil
// when there is none.
func runsAnyway(info *types.Info, file *ast.File, is *ast.IfStmt, fail *ast.BlockStmt) *ast.CallExpr {
	body := section.FuncBody(section.EnclosingFunc(file, is.Pos()))
	if body == nil {
		return nil
	}
	var found *ast.CallExpr
	inspectHere(fail, func(call *ast.CallExpr) {
		key, ok := workKey(info, call)
		if found != nil || !ok {
			return
		}
		inspectHere(body, func(other *ast.CallExpr) {
			if k, ok := workKey(info, other); ok && found == nil && other.Pos() >= is.End() && k == key {
				found = call
			}
		})
	})
	return found
}

// work names the callee of a call that runs the caller's work: the
// func-typed variable called, or the method and the variable it is
// called on.
type work struct {
	fn   types.Object
	recv types.Object
}

// workKey returns the work a call runs; false for any other call.
func workKey(info *types.Info, call *ast.CallExpr) (work, bool) {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if v, ok := info.Uses[fun].(*types.Var); ok && isParam(v) {
			if _, ok := v.Type().Underlying().(*types.Signature); ok {
				return work{fn: v}, true
			}
		}
	case *ast.SelectorExpr:
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		id, isIdent := ast.Unparen(fun.X).(*ast.Ident)
		if !ok || !isIdent || !continuesChain(fn) {
			break
		}
		if v, ok := info.Uses[id].(*types.Var); ok {
			return work{fn: fn, recv: v}, true
		}
	}
	return work{}, false
}

// isParam reports whether v is a parameter of a function (not a local,
// not a field): the work a caller handed in.
func isParam(v *types.Var) bool {
	return v.Kind() == types.ParamVar
}

// continuesChain reports whether fn hands a request on to the rest of a
// middleware chain.
func continuesChain(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	switch fn.Name() {
	case "Next":
		return path == "github.com/gin-gonic/gin" || path == "github.com/gofiber/fiber/v2" || path == "github.com/gofiber/fiber/v3"
	case "ServeHTTP":
		return path == "net/http"
	}
	return false
}

// inspectHere calls f for each call in n that runs where n runs (not in
// function literals or deferred calls).
func inspectHere(n ast.Node, f func(*ast.CallExpr)) {
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			f(x)
		}
		return true
	})
}

// failBranch returns the if statement whose condition ends block b and
// the branch it takes along edge (0 then, 1 else), when that branch is a
// block; nil otherwise.
func failBranch(b *cfg.Block, edge int) (*ast.IfStmt, *ast.BlockStmt) {
	succ := b.Succs[edge]
	is, ok := succ.Stmt.(*ast.IfStmt)
	if !ok || len(b.Nodes) == 0 || b.Nodes[len(b.Nodes)-1] != is.Cond {
		return nil, nil
	}
	switch {
	case edge == 0 && succ.Kind == cfg.KindIfThen:
		return is, is.Body
	case edge == 1 && succ.Kind == cfg.KindIfElse:
		if els, ok := is.Else.(*ast.BlockStmt); ok {
			return is, els
		}
	}
	return nil, nil
}
