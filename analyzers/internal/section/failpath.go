package section

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
	return failureReturns(info, mayReturn, fd, call, false)
}

// AcquireFailureReturns is FailureReturns for an acquire: a branch that
// tests the error for the client's nil reply (errors.Is(err, redis.Nil))
// is the refusal of a SET NX sent with SetArgs or Do, not a failure of
// Redis, and is not followed. (A renewal's nil reply is the lost lock,
// a failure: FailureReturns follows it.)
func AcquireFailureReturns(info *types.Info, mayReturn func(*ast.CallExpr) bool, fd *ast.FuncDecl, call *ast.CallExpr) (rets []*ast.ReturnStmt, ok bool) {
	return failureReturns(info, mayReturn, fd, call, true)
}

func failureReturns(info *types.Info, mayReturn func(*ast.CallExpr) bool, fd *ast.FuncDecl, call *ast.CallExpr, refusalByNil bool) (rets []*ast.ReturnStmt, ok bool) {
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
		succs := blk.Succs
		if refusalByNil && len(succs) == 2 && len(blk.Nodes) > 0 {
			if cond, ok := blk.Nodes[len(blk.Nodes)-1].(ast.Expr); ok {
				switch nilReplyTest(info, cond, errVar) {
				case token.EQL: // if errors.Is(err, redis.Nil): the refusal, not a failure
					succs = succs[1:]
				case token.NEQ:
					succs = succs[:1]
				}
			}
		}
		for _, s := range succs {
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return rets, true
}

// nilReplyTest reports how cond tests v against a Redis client's nil
// reply (go-redis and rueidis Nil, redigo ErrNil): EQL for errors.Is(v,
// redis.Nil) or v == redis.Nil, NEQ for the negations, ILLEGAL otherwise.
// An acquire whose refusal comes back as that error (SetArgs with NX, Do
// of SET NX) was answered, not failed, on that branch.
func nilReplyTest(info *types.Info, cond ast.Expr, v types.Object) token.Token {
	neg := false
	if u, ok := ast.Unparen(cond).(*ast.UnaryExpr); ok && u.Op == token.NOT {
		cond, neg = u.X, true
	}
	var x, y ast.Expr
	op := token.EQL
	switch e := ast.Unparen(cond).(type) {
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Is" || len(e.Args) != 2 {
			return token.ILLEGAL
		}
		if pkg, ok := info.Uses[identOf(sel.X)].(*types.PkgName); !ok || pkg.Imported().Path() != "errors" {
			return token.ILLEGAL
		}
		x, y = e.Args[0], e.Args[1]
	case *ast.BinaryExpr:
		if e.Op != token.EQL && e.Op != token.NEQ {
			return token.ILLEGAL
		}
		x, y, op = e.X, e.Y, e.Op
		if info.Uses[identOf(y)] == v {
			x, y = y, x
		}
	default:
		return token.ILLEGAL
	}
	if info.Uses[identOf(x)] != v || !isNilReply(info, y) {
		return token.ILLEGAL
	}
	if neg {
		if op == token.EQL {
			return token.NEQ
		}
		return token.EQL
	}
	return op
}

// isNilReply reports whether e is a Redis client's nil-reply error
// variable: go-redis redis.Nil, rueidis/valkey Nil, redigo redis.ErrNil.
func isNilReply(info *types.Info, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	obj := info.Uses[sel.Sel] // go-redis's Nil is a constant, redigo's ErrNil a variable
	switch obj.(type) {
	case *types.Var, *types.Const:
	default:
		return false
	}
	if obj.Pkg() == nil || obj.Name() != "Nil" && obj.Name() != "ErrNil" {
		return false
	}
	path := obj.Pkg().Path()
	return strings.Contains(path, "redis") || strings.Contains(path, "rueidis") || strings.Contains(path, "valkey")
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
