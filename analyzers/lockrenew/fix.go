package lockrenew

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

const safelockPath = "github.com/locklint/locklint/safelock"

// renewFix rewrites an unchecked EXPIRE of the lock key into an
// owner-checked renewal, when the holder's token is in scope:
//
//	go-redis v9:  rdb.Expire(ctx, key, ttl)           -> safelock.RenewKey(ctx, rdb, key, token, ttl)
//	              rdb.PExpire(ctx, key, ttl).Result() -> safelock.RenewKey(ctx, rdb, key, token, ttl)
//	              err := rdb.Expire(...).Err()        -> _, err := safelock.RenewKey(...)
//	              return rdb.Expire(...).Err()        -> _, err := safelock.RenewKey(...); return err
//	redigo:       conn.Do("PEXPIRE", key, ms)         -> redis.NewScript(1, safelock.RenewScript).Do(conn, key, token, ms)
//	              conn.Do("EXPIRE", key, s)           -> ... .Do(conn, key, token, s*1000)
//
// RenewKey returns (bool, error) like BoolCmd.Result, and Script.Do
// returns what Conn.Do returns, so callers keep compiling. Val(), older
// go-redis (whose clients RenewKey does not take), pipelines and
// transactions get no fix.
func renewFix(pass *analysis.Pass, l *lifecycle.Lock, op *lifecycle.Op) []analysis.SuggestedFix {
	cmd := op.Cmd
	if cmd.Partial || len(cmd.Keys) != 1 || cmd.TTL == nil || cmd.Opts.Cond != "" || cmd.Recv == nil ||
		op.In.Multi || op.In.Pipeline || op.In.Watch != nil {
		return nil
	}
	if cmd.Name != "EXPIRE" && cmd.Name != "PEXPIRE" {
		return nil
	}
	file := fixes.File(pass, op.Pos())
	if file == nil {
		return nil
	}
	switch cmd.Client {
	case redismodel.GoRedis:
		token := tokenAt(pass, l, op, true)
		if token == "" {
			return nil
		}
		return goRedisFix(pass, file, op, token)
	case redismodel.Redigo:
		token := tokenAt(pass, l, op, false)
		if token == "" {
			return nil
		}
		return redigoFix(pass, file, op, token)
	}
	return nil
}

func goRedisFix(pass *analysis.Pass, file *ast.File, op *lifecycle.Op, token string) []analysis.SuggestedFix {
	cmd := op.Cmd
	if cmd.Package != "github.com/redis/go-redis/v9" || cmd.CtxArg == nil || !fixes.ImmediateScripter(pass, cmd.Recv, cmd.Method.Pkg()) {
		return nil
	}
	if name := cmd.Method.Name(); name != "Expire" && name != "PExpire" {
		return nil
	}
	shape := shapeOf(pass, file, op.Call)
	if shape.target == nil {
		return nil
	}
	local, edits, ok := fixes.Import(pass, file, op.Pos(), safelockPath, "safelock")
	if !ok {
		return nil
	}
	ctx, recv, key, ttl := fixes.Source(pass, cmd.CtxArg), fixes.Source(pass, cmd.Recv), fixes.Source(pass, cmd.Keys[0]), fixes.Source(pass, cmd.TTL)
	if ctx == "" || recv == "" || key == "" || ttl == "" {
		return nil
	}
	call := local + ".RenewKey(" + ctx + ", " + recv + ", " + key + ", " + token + ", " + ttl + ")"
	switch {
	case shape.assign != nil:
		// err := rdb.Expire(...).Err()  ->  _, err := safelock.RenewKey(...)
		edits = append(edits,
			analysis.TextEdit{Pos: shape.assign.Lhs[0].Pos(), End: shape.assign.Lhs[0].Pos(), NewText: []byte("_, ")},
			analysis.TextEdit{Pos: shape.target.Pos(), End: shape.target.End(), NewText: []byte(call)})
	case shape.ret != nil:
		// return rdb.Expire(...).Err()  ->  _, err := safelock.RenewKey(...); return err
		edits = append(edits, analysis.TextEdit{Pos: shape.ret.Pos(), End: shape.ret.End(),
			NewText: []byte("_, err " + shape.errDecl + " " + call + "\n" + indent(pass, shape.ret) + "return err")})
	default:
		edits = append(edits, analysis.TextEdit{Pos: shape.target.Pos(), End: shape.target.End(), NewText: []byte(call)})
	}
	return []analysis.SuggestedFix{{Message: "Renew with safelock.RenewKey (compare-and-expire)", TextEdits: edits}}
}

// fixShape is where an Expire call sits and what to replace.
type fixShape struct {
	target  ast.Expr        // the expression to replace with the RenewKey call
	assign  *ast.AssignStmt // x := call.Err() (one variable): prefix "_, "
	ret     *ast.ReturnStmt // return call.Err(): replace the statement
	errDecl string          // ":=" or "=" for err in the return shape
}

// shapeOf finds the statement shape around call: its result discarded
// (call or call.Err() as a statement, go call, defer call), .Result()
// anywhere (same types),
// .Err() assigned to one variable, or returned alone.
func shapeOf(pass *analysis.Pass, file *ast.File, call *ast.CallExpr) fixShape {
	path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
	i := 0
	for i < len(path) && path[i] != ast.Node(call) {
		i++
	}
	parent := func(k int) ast.Node {
		for j := i + 1; j < len(path); j++ {
			if _, paren := path[j].(*ast.ParenExpr); paren {
				continue
			}
			if k == 0 {
				return path[j]
			}
			k--
		}
		return nil
	}
	switch p := parent(0).(type) {
	case *ast.ExprStmt:
		return fixShape{target: call}
	case *ast.GoStmt:
		if p.Call == call {
			return fixShape{target: call}
		}
	case *ast.DeferStmt:
		if p.Call == call {
			return fixShape{target: call}
		}
	}
	sel, ok := parent(0).(*ast.SelectorExpr)
	if !ok {
		return fixShape{}
	}
	outer, ok := parent(1).(*ast.CallExpr)
	if !ok || outer.Fun != sel || len(outer.Args) != 0 {
		return fixShape{}
	}
	switch sel.Sel.Name {
	case "Result":
		return fixShape{target: outer}
	case "Err":
	default:
		return fixShape{}
	}
	switch stmt := parent(2).(type) {
	case *ast.ExprStmt:
		return fixShape{target: outer}
	case *ast.AssignStmt:
		if len(stmt.Lhs) == 1 && len(stmt.Rhs) == 1 && (stmt.Tok == token.DEFINE || stmt.Tok == token.ASSIGN) {
			return fixShape{target: outer, assign: stmt}
		}
	case *ast.ReturnStmt:
		if len(stmt.Results) != 1 {
			return fixShape{}
		}
		switch parent(3).(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		default:
			return fixShape{}
		}
		// Declare err unless this block already has one of type error.
		fileScope := pass.TypesInfo.Scopes[file]
		if fileScope == nil {
			return fixShape{}
		}
		scope := fileScope.Innermost(stmt.Pos())
		if scope == nil {
			return fixShape{}
		}
		decl := ":="
		if obj := scope.Lookup("err"); obj != nil {
			if !types.Identical(obj.Type(), types.Universe.Lookup("error").Type()) {
				return fixShape{}
			}
			decl = "="
		}
		return fixShape{target: outer, ret: stmt, errDecl: decl}
	}
	return fixShape{}
}

// indent returns the leading blanks of n's line.
func indent(pass *analysis.Pass, n ast.Node) string {
	tf := pass.Fset.File(n.Pos())
	line := fixes.Source(pass, &ast.BadExpr{From: tf.LineStart(pass.Fset.Position(n.Pos()).Line), To: n.Pos()})
	for i, c := range line {
		if c != ' ' && c != '\t' {
			return line[:i]
		}
	}
	return line
}

func redigoFix(pass *analysis.Pass, file *ast.File, op *lifecycle.Op, token string) []analysis.SuggestedFix {
	cmd := op.Cmd
	if cmd.Method.Name() != "Do" || len(op.Call.Args) != 3 {
		return nil
	}
	ms := millis(pass, cmd)
	if ms == "" {
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
	call := redis + ".NewScript(1, " + local + ".RenewScript).Do(" + conn + ", " + key + ", " + token + ", " + ms + ")"
	edits = append(edits, analysis.TextEdit{Pos: op.Call.Pos(), End: op.Call.End(), NewText: []byte(call)})
	return []analysis.SuggestedFix{{Message: "Renew with safelock.RenewScript (compare-and-expire)", TextEdits: edits}}
}

// millis returns the TTL of a redigo EXPIRE/PEXPIRE in milliseconds, as
// RenewScript's ARGV[2] wants it: PEXPIRE's argument as is, EXPIRE's times
// 1000 when it is an integer. Floats and strings get no fix.
func millis(pass *analysis.Pass, cmd *redismodel.Command) string {
	tv, ok := pass.TypesInfo.Types[cmd.TTL]
	if !ok {
		return ""
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return ""
	}
	src := fixes.Source(pass, cmd.TTL)
	if cmd.Name == "PEXPIRE" || src == "" {
		return src
	}
	if tv.Value != nil {
		if n, exact := constant.Int64Val(constant.ToInt(tv.Value)); exact && n < 1<<40 {
			return strconv.FormatInt(n*1000, 10)
		}
		return ""
	}
	switch ast.Unparen(cmd.TTL).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr:
		return src + "*1000"
	}
	return "(" + src + ")*1000"
}

// tokenAt returns source text naming the lock's token at op, or "". Every
// acquire of the lock must store the same token: a variable in scope at op
// (same function), or a field of the receiver (a sibling method). For
// go-redis the token must be a string (RenewKey's parameter); redigo
// formats any value the way the acquire did.
func tokenAt(pass *analysis.Pass, l *lifecycle.Lock, op *lifecycle.Op, needString bool) string {
	text := ""
	for _, acq := range l.Acquires {
		t := tokenFrom(pass, acq, op, needString)
		if t == "" || text != "" && t != text {
			return ""
		}
		text = t
	}
	return text
}

func tokenFrom(pass *analysis.Pass, acq, op *lifecycle.Op, needString bool) string {
	v := acq.Value
	if v == nil {
		return ""
	}
	if tv, ok := pass.TypesInfo.Types[v]; ok && tv.Value != nil {
		return "" // a constant is no token (lockvalue reports it)
	}
	t := pass.TypesInfo.TypeOf(v)
	if t == nil || needString && !types.AssignableTo(t, types.Typ[types.String]) {
		return ""
	}
	switch v := ast.Unparen(v).(type) {
	case *ast.Ident:
		// A variable, or tok in tok, ok := helper(...) for a helper that
		// returns the token it stored.
		obj, ok := pass.TypesInfo.ObjectOf(v).(*types.Var)
		if !ok || acq.In.Decl != op.In.Decl || fixes.Visible(pass, op.Pos(), v.Name) != obj || reassigned(pass, op.In.Decl, obj) {
			return ""
		}
		return v.Name
	case *ast.SelectorExpr:
		// l.token in Lock, read as m.token in Refresh of the same type.
		recv, ok := v.X.(*ast.Ident)
		if !ok {
			return ""
		}
		acqRecv, opRecv := recvVar(pass, acq.In.Decl), recvVar(pass, op.In.Decl)
		if acqRecv == nil || opRecv == nil || pass.TypesInfo.Uses[recv] != acqRecv || opRecv.Name() == "_" || opRecv.Name() == "" ||
			!types.Identical(acqRecv.Type(), opRecv.Type()) || fixes.Visible(pass, op.Pos(), opRecv.Name()) != opRecv {
			return ""
		}
		if sel := pass.TypesInfo.Selections[v]; sel == nil || sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
			return ""
		}
		return opRecv.Name() + "." + v.Sel.Name
	}
	return ""
}

// reassigned reports whether v is assigned anywhere in fd other than at
// its declaration, so its value at the renewal may not be the token.
func reassigned(pass *analysis.Pass, fd *ast.FuncDecl, v *types.Var) bool {
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && pass.TypesInfo.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
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
