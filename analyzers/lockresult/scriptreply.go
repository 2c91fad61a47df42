package lockresult

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/section"
)

// zeroReplyDropped reports a Lua acquire that answers 0 when it takes the
// lock (and another number when the key is held) whose error is dropped:
// read with Val(), or with the error assigned to _. When Redis fails,
// go-redis gives a nil reply (Val) or 0 (Int, Int64), which reads as the
// script's "acquired", so the caller runs the critical section without
// the lock. A script that answers 1 for "acquired" fails closed the same
// way, and is left alone.
func (r *runner) zeroReplyDropped(fd *ast.FuncDecl) {
	var parent map[ast.Node]ast.Node
	for _, c := range r.res.Calls[fd] {
		cmd := c.Cmd
		if cmd == nil || cmd.Script == nil || cmd.Client != redismodel.GoRedis || cmd.In.Multi || cmd.In.Pipeline {
			continue
		}
		acquired, refused := "", ""
		for k := 1; k <= max(len(cmd.Keys), 1) && acquired == ""; k++ {
			acquired, refused, _ = cmd.Script.AcquireReplies(k)
		}
		if acquired != "0" {
			continue
		}
		if op := r.acquireOp(fd, c.Call); op == nil || !lockish(op, fd) {
			continue
		}
		if parent == nil {
			parent = section.Parents(fd)
		}
		how := droppedBy(parent, c.Call)
		if how == "" || r.assertedOnly(fd, parent, c.Call) {
			continue
		}
		r.pass.Report(analysis.Diagnostic{
			Pos: c.Call.Pos(), End: c.Call.End(),
			Message: fmt.Sprintf("the lock script answers 0 when it takes the lock and %s when the key is held, and its error is dropped (%s): "+
				"when Redis fails (unreachable, a timeout), the reply reads as 0, \"acquired\", and the caller runs the critical section without the lock; "+
				"check the error and treat it as not acquired, or use safelock.Locker.TryAcquire", refused, how),
		})
	}
}

// assertedOnly reports whether the Val() reply of call is read with a
// single-value type assertion (v.(int64)): on a Redis error it is nil and
// the assertion panics, which fails closed.
func (r *runner) assertedOnly(fd *ast.FuncDecl, parent map[ast.Node]ast.Node, call *ast.CallExpr) bool {
	reader, _ := parent[parent[call]].(*ast.CallExpr)
	if reader == nil {
		return false
	}
	panics := func(e ast.Node) bool {
		ta, ok := parent[e].(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			return false
		}
		as, ok := parent[ta].(*ast.AssignStmt)
		return !ok || len(as.Lhs) != 2
	}
	if panics(reader) {
		return true
	}
	as, ok := parent[reader].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return false
	}
	v := r.pass.TypesInfo.ObjectOf(id)
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if use, ok := n.(*ast.Ident); ok && use != id && r.pass.TypesInfo.Uses[use] == v && panics(use) {
			found = true
		}
		return !found
	})
	return found
}

// droppedBy says how the error of the script call is dropped: "read with
// Val()", "assigned to _", or "" when it is kept.
func droppedBy(parent map[ast.Node]ast.Node, call *ast.CallExpr) string {
	sel, ok := parent[call].(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	reader, ok := parent[sel].(*ast.CallExpr)
	if !ok || reader.Fun != sel {
		return ""
	}
	switch sel.Sel.Name {
	case "Val":
		return "read with Val()"
	case "Result", "Int", "Int64":
		as, ok := parent[reader].(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return ""
		}
		if id, ok := as.Lhs[1].(*ast.Ident); ok && id.Name == "_" {
			return "assigned to _"
		}
	}
	return ""
}
