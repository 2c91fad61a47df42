package section

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/cfg"
)

// FailureReturns returns the return statements of fd reachable from the
// branch where call's error result is not nil: the code that runs when
// an acquire or a renewal failed. The error must be assigned to a
// variable (err := call, _, err := call, if err := call; ...) and tested
// with err != nil (or err == nil, taking the false branch) in fd before
// it is assigned again. ok is false when no such test is found.
//
// A path that reaches call again (a retry loop) ends there; returns in
// function literals are not fd's. mayReturn is the graph's callback
// (noreturn's Result.MayReturn): a path through a call that exits ends.
func FailureReturns(info *types.Info, mayReturn func(*ast.CallExpr) bool, fd *ast.FuncDecl, call *ast.CallExpr) (rets []*ast.ReturnStmt, ok bool) {
	errVar := errResultVar(info, fd, call)
	if errVar == nil {
		return nil, false
	}
	g := cfg.New(fd.Body, mayReturn)
	var start *cfg.Block
	first := token.NoPos // the first test of the error after the call
	for _, blk := range g.Blocks {
		if !blk.Live || len(blk.Nodes) == 0 || len(blk.Succs) != 2 || blk.Kind == cfg.KindRangeLoop || blk.Kind == cfg.KindSelectAfterCase {
			continue
		}
		cond, isExpr := blk.Nodes[len(blk.Nodes)-1].(ast.Expr)
		if !isExpr || cond.Pos() < call.End() {
			continue
		}
		op := errTest(info, cond, errVar)
		if op == token.ILLEGAL || first.IsValid() && cond.Pos() > first {
			continue
		}
		first = cond.Pos()
		if op == token.NEQ {
			start = blk.Succs[0]
		} else {
			start = blk.Succs[1]
		}
	}
	if start == nil {
		return nil, false
	}
	seen := map[*cfg.Block]bool{start: true}
	queue := []*cfg.Block{start}
	for len(queue) > 0 {
		blk := queue[0]
		queue = queue[1:]
		again := false
		for _, n := range blk.Nodes {
			if within(call, n) {
				again = true
				break
			}
			if r, ok := n.(*ast.ReturnStmt); ok {
				rets = append(rets, r)
			}
		}
		if again {
			continue
		}
		for _, s := range blk.Succs {
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return rets, true
}

// errResultVar returns the variable call's error result is assigned to.
func errResultVar(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) types.Object {
	var found types.Object
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found != nil {
			return found == nil
		}
		if len(as.Rhs) != 1 || !readsReply(as.Rhs[0], call) {
			return true
		}
		for i := len(as.Lhs) - 1; i >= 0; i-- {
			id, ok := ast.Unparen(as.Lhs[i]).(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			if obj := info.ObjectOf(id); obj != nil && isError(obj.Type()) {
				found = obj
			}
			break
		}
		return false
	})
	return found
}

// readsReply reports whether e is call, or reads its reply in one step:
// call.Result(), redis.String(call).
func readsReply(e ast.Expr, call *ast.CallExpr) bool {
	e = ast.Unparen(e)
	if e == ast.Expr(call) {
		return true
	}
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && ast.Unparen(sel.X) == ast.Expr(call) {
		return true
	}
	return len(c.Args) == 1 && ast.Unparen(c.Args[0]) == ast.Expr(call)
}

// errTest returns NEQ for "v != nil", EQL for "v == nil", else ILLEGAL.
func errTest(info *types.Info, cond ast.Expr, v types.Object) token.Token {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ && be.Op != token.EQL {
		return token.ILLEGAL
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if id, ok := y.(*ast.Ident); ok && info.Uses[id] == v {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || info.Uses[id] != v {
		return token.ILLEGAL
	}
	if tv, ok := info.Types[y]; !ok || !tv.IsNil() {
		return token.ILLEGAL
	}
	return be.Op
}
