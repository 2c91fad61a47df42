package lockrelease

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

const safelockPath = "github.com/locklint/locklint/safelock"

// releaseFix rewrites a plain DEL of the lock key into an owner-checked
// release, when the holder's token is in scope at the DEL:
//
//	go-redis v9:  rdb.Del(ctx, key)      -> safelock.ReleaseKey(ctx, rdb, key, token)
//	              err := rdb.Del(..).Err() -> _, err := safelock.ReleaseKey(...)
//	redigo:       conn.Do("DEL", key)    -> redis.NewScript(1, safelock.ReleaseScript).Do(conn, key, token)
//
// Other shapes (Result(), return values, pipelines, several keys, older
// go-redis) get no fix: their types would change.
func releaseFix(pass *analysis.Pass, res *lifecycle.Result, l *lifecycle.Lock, op *lifecycle.Op) []analysis.SuggestedFix {
	cmd := op.Cmd
	if cmd.Partial || len(cmd.Keys) != 1 || op.In.Multi || op.In.Pipeline || op.In.Watch != nil || cmd.Recv == nil {
		return nil
	}
	token := tokenAt(pass, l, op)
	if token == "" {
		return nil
	}
	file := fixes.File(pass, op.Pos())
	if file == nil {
		return nil
	}
	switch cmd.Client {
	case redismodel.GoRedis:
		return goRedisFix(pass, file, op, token)
	case redismodel.Redigo:
		return redigoFix(pass, file, op, token)
	}
	return nil
}

func goRedisFix(pass *analysis.Pass, file *ast.File, op *lifecycle.Op, token string) []analysis.SuggestedFix {
	cmd := op.Cmd
	if cmd.Package != "github.com/redis/go-redis/v9" || cmd.Name != "DEL" && cmd.Name != "UNLINK" ||
		cmd.CtxArg == nil || !isString(pass.TypesInfo, cmd.Keys[0]) || !fixes.ImmediateScripter(pass, cmd.Recv, cmd.Method.Pkg()) {
		return nil
	}
	// Find the statement shape around the call.
	target, define := replaceable(op.In.Decl.Body, op.Call)
	if target == nil {
		return nil
	}
	local, edits, ok := fixes.Import(pass, file, op.Pos(), safelockPath, "safelock")
	if !ok {
		return nil
	}
	ctx, recv, key := fixes.Source(pass, cmd.CtxArg), fixes.Source(pass, cmd.Recv), fixes.Source(pass, cmd.Keys[0])
	if ctx == "" || recv == "" || key == "" {
		return nil
	}
	call := local + ".ReleaseKey(" + ctx + ", " + recv + ", " + key + ", " + token + ")"
	if define != nil {
		// err := rdb.Del(ctx, key).Err()  ->  _, err := safelock.ReleaseKey(...)
		edits = append(edits,
			analysis.TextEdit{Pos: define.Lhs[0].Pos(), End: define.Lhs[0].Pos(), NewText: []byte("_, ")},
			analysis.TextEdit{Pos: target.Pos(), End: target.End(), NewText: []byte(call)})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: target.Pos(), End: target.End(), NewText: []byte(call)})
	}
	return []analysis.SuggestedFix{{Message: "Release with safelock.ReleaseKey (compare-and-delete)", TextEdits: edits}}
}

// replaceable returns the expression to replace for a Del call whose
// result is discarded (rdb.Del(...), rdb.Del(...).Err() as a statement,
// in defer or go) or whose Err() is assigned to one variable (then define
// is the assignment).
func replaceable(body *ast.BlockStmt, call *ast.CallExpr) (target ast.Expr, define *ast.AssignStmt) {
	errOf := func(e ast.Expr) bool {
		outer, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(outer.Args) != 0 {
			return false
		}
		sel, ok := outer.Fun.(*ast.SelectorExpr)
		return ok && sel.X == call && sel.Sel.Name == "Err"
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if target != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.ExprStmt:
			if ast.Unparen(n.X) == call || errOf(n.X) {
				target = n.X
			}
		case *ast.DeferStmt:
			if n.Call == call {
				target = n.Call
			}
		case *ast.GoStmt:
			if n.Call == call {
				target = n.Call
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && errOf(n.Rhs[0]) {
				target, define = n.Rhs[0], n
			}
		}
		return true
	})
	return target, define
}

func redigoFix(pass *analysis.Pass, file *ast.File, op *lifecycle.Op, token string) []analysis.SuggestedFix {
	cmd := op.Cmd
	if cmd.Name != "DEL" && cmd.Name != "UNLINK" {
		return nil
	}
	if name := cmd.Method.Name(); name != "Do" && name != "Send" || len(op.Call.Args) != 2 {
		return nil
	}
	redis, edits, ok := fixes.Import(pass, file, op.Pos(), cmd.Package, "redis")
	if !ok || len(edits) > 0 {
		return nil // the file reaches redigo some other way; leave it
	}
	local, edits, ok := fixes.Import(pass, file, op.Pos(), safelockPath, "safelock")
	if !ok {
		return nil
	}
	conn, key := fixes.Source(pass, cmd.Recv), fixes.Source(pass, cmd.Keys[0])
	if conn == "" || key == "" {
		return nil
	}
	call := redis + ".NewScript(1, " + local + ".ReleaseScript)." + cmd.Method.Name() + "(" + conn + ", " + key + ", " + token + ")"
	edits = append(edits, analysis.TextEdit{Pos: op.Call.Pos(), End: op.Call.End(), NewText: []byte(call)})
	return []analysis.SuggestedFix{{Message: "Release with safelock.ReleaseScript (compare-and-delete)", TextEdits: edits}}
}

// tokenAt returns source text naming the lock's token at the DEL, or "".
// Every acquire of the lock must store the same token: a variable in scope
// at the DEL (same function), or a field of the receiver (sibling method).
func tokenAt(pass *analysis.Pass, l *lifecycle.Lock, del *lifecycle.Op) string {
	text := ""
	for _, acq := range l.Acquires {
		t := tokenFrom(pass, acq, del)
		if t == "" || text != "" && t != text {
			return ""
		}
		text = t
	}
	return text
}

func tokenFrom(pass *analysis.Pass, acq, del *lifecycle.Op) string {
	v := acq.Value
	if v == nil || !isString(pass.TypesInfo, v) {
		return ""
	}
	if tv, ok := pass.TypesInfo.Types[v]; ok && tv.Value != nil {
		return "" // a constant is no token (lockvalue reports it)
	}
	switch v := ast.Unparen(v).(type) {
	case *ast.Ident:
		obj, ok := pass.TypesInfo.ObjectOf(v).(*types.Var)
		if !ok || acq.In.Decl != del.In.Decl || fixes.Visible(pass, del.Pos(), v.Name) != obj || obj.Pos() > acq.Pos() {
			return ""
		}
		return v.Name
	case *ast.SelectorExpr:
		// l.token in Lock, read as m.token in Unlock of the same type.
		recv, ok := v.X.(*ast.Ident)
		if !ok {
			return ""
		}
		acqRecv, delRecv := recvVar(pass, acq.In.Decl), recvVar(pass, del.In.Decl)
		if acqRecv == nil || delRecv == nil || pass.TypesInfo.Uses[recv] != acqRecv ||
			!types.Identical(acqRecv.Type(), delRecv.Type()) || fixes.Visible(pass, del.Pos(), delRecv.Name()) != delRecv {
			return ""
		}
		if sel := pass.TypesInfo.Selections[v]; sel == nil || sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
			return ""
		}
		return delRecv.Name() + "." + v.Sel.Name
	}
	return ""
}

func recvVar(pass *analysis.Pass, fd *ast.FuncDecl) *types.Var {
	if fd == nil || fd.Recv == nil {
		return nil
	}
	fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return nil
	}
	return fn.Type().(*types.Signature).Recv()
}
