package lifecycle

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// Discarded reports whether nothing looks at the result of op's call: it
// is a statement of its own (also in defer or go), or it is assigned only
// to blanks. Method chains on the result (.Val(), .Result(), .Err()) and
// client helpers around it (redigo's redis.String(conn.Do(...)), rueidis's
// c.Do(ctx, cmd)) are followed. A command queued in a pipeline or
// MULTI/EXEC is never discarded: its result comes back from Exec.
//
// An NX "acquire" whose result nobody reads decides nothing, so it is a
// cache fill or a marker rather than a lock; rules use this to stay silent
// about such keys.
func Discarded(pass *analysis.Pass, op *Op) bool {
	if op.In.Multi || op.In.Pipeline {
		return queuedAndDropped(pass, op)
	}
	if isRadixAction(op) && !RadixReplyDropped(pass, op) {
		return false
	}
	path := callPath(pass, op.Call)
	var cur ast.Node = op.Call
	for i := 0; i < len(path); i++ {
		if path[i] != cur {
			continue
		}
		if i+1 >= len(path) {
			return false
		}
		switch p := path[i+1].(type) {
		case *ast.ParenExpr:
			cur = p
		case *ast.SelectorExpr:
			// x.Val() / x.Result() / x.Err(): the call around the selector.
			if i+2 < len(path) {
				if call, ok := path[i+2].(*ast.CallExpr); ok && call.Fun == p {
					cur = call
					i++
					continue
				}
			}
			return false
		case *ast.CallExpr:
			if !clientCall(pass.TypesInfo, p) {
				return false // passed to a function that may look at it
			}
			cur = p
		case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
			return true
		case *ast.AssignStmt:
			for _, lhs := range p.Lhs {
				if id, ok := lhs.(*ast.Ident); !ok || id.Name != "_" {
					return false
				}
			}
			return true
		default:
			return false
		}
	}
	return false
}

// callPath returns the nodes enclosing call, innermost first, or nil.
func callPath(pass *analysis.Pass, call *ast.CallExpr) []ast.Node {
	for _, f := range pass.Files {
		if f.FileStart <= call.Pos() && call.Pos() < f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, call.Pos(), call.End())
			return path
		}
	}
	return nil
}

// clientCall reports whether call is a function or method of a Redis
// client package (rueidis Do, redigo's reply helpers), whose result
// carries the command's own.
func clientCall(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && redismodel.IsClientPackage(fn.Pkg().Path())
}

// OutcomeIgnored reports whether nothing reads whether an NX acquire won:
// its result is discarded, or only its error is (go-redis
// SetNX(...).Err(), or _, err := SetNX(...).Result()). Such a SETNX
// creates a record once, and whether it did so decides nothing.
func OutcomeIgnored(pass *analysis.Pass, op *Op) bool {
	if Discarded(pass, op) {
		return true
	}
	if op.In.Multi || op.In.Pipeline {
		return false
	}
	if isRadixAction(op) {
		return RadixReplyDropped(pass, op) // the Do's error alone is seen
	}
	path := callPath(pass, op.Call)
	if len(path) > 1 {
		// _, err := c.SetNXCtx(ctx, key, v, ttl): a helper's (won, error)
		// with the outcome thrown away.
		if as, ok := path[1].(*ast.AssignStmt); ok && path[0] == op.Call && len(as.Rhs) == 1 && len(as.Lhs) == 2 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == "_" && isBool(pass.TypesInfo.TypeOf(op.Call), 0) {
				return true
			}
		}
	}
	if op.Via != nil {
		return false
	}
	for i := 0; i+2 < len(path); i++ {
		if path[i] != op.Call {
			continue
		}
		sel, ok := path[i+1].(*ast.SelectorExpr)
		if !ok {
			return false
		}
		call, ok := path[i+2].(*ast.CallExpr)
		if !ok || call.Fun != sel {
			return false
		}
		switch sel.Sel.Name {
		case "Err":
			return true
		case "Result":
			if i+3 < len(path) {
				if as, ok := path[i+3].(*ast.AssignStmt); ok && len(as.Lhs) == 2 {
					id, ok := as.Lhs[0].(*ast.Ident)
					return ok && id.Name == "_"
				}
			}
		}
		return false
	}
	return false
}

// OnlyPrinted reports whether the outcome of op is assigned to a variable
// that is only ever printed (fmt, log): a demo of what SETNX answers
// decides nothing, as a lock's outcome does.
func OnlyPrinted(pass *analysis.Pass, op *Op) bool {
	if op.In.Decl == nil || op.In.Multi || op.In.Pipeline {
		return false
	}
	v := outcomeVar(pass, op)
	if v == nil {
		return false
	}
	uses := 0
	printed := true
	ast.Inspect(op.In.Decl.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, r := range as.Rhs { // a reassignment is no read
				ast.Inspect(r, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
						printed = false
					}
					return true
				})
			}
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if ok && printCall(pass.TypesInfo, call) {
			for _, a := range call.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
					uses++
				}
			}
			return false
		}
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
			printed = false
		}
		return true
	})
	return printed && uses > 0
}

// outcomeVar returns the variable the first result of op's call (or of
// .Result()/.Val() on it) is assigned to, or nil.
func outcomeVar(pass *analysis.Pass, op *Op) *types.Var {
	path := callPath(pass, op.Call)
	var cur ast.Node = op.Call
	for i := 0; i+1 < len(path); i++ {
		if path[i] != cur {
			continue
		}
		switch p := path[i+1].(type) {
		case *ast.ParenExpr:
			cur = p
		case *ast.SelectorExpr:
			if i+2 < len(path) {
				if call, ok := path[i+2].(*ast.CallExpr); ok && call.Fun == p && (p.Sel.Name == "Result" || p.Sel.Name == "Val") {
					cur = call
					i++
					continue
				}
			}
			return nil
		case *ast.AssignStmt:
			if len(p.Rhs) != 1 || len(p.Lhs) == 0 {
				return nil
			}
			id, ok := p.Lhs[0].(*ast.Ident)
			if !ok {
				return nil
			}
			v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
			return v
		default:
			return nil
		}
	}
	return nil
}

// printCall reports whether call prints or logs its arguments: a function
// of fmt or log, or a Print/Printf/Println method.
func printCall(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "fmt", "log":
		return true
	}
	switch fn.Name() {
	case "Print", "Printf", "Println":
		return true
	}
	return false
}

// isBool reports whether result i of a call of type t is a bool.
func isBool(t types.Type, i int) bool {
	tu, ok := t.(*types.Tuple)
	if !ok || i >= tu.Len() {
		return false
	}
	b, ok := tu.At(i).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// DecidesByOne reports whether the reply of an INCR call is compared with
// the constant 1 and with nothing else (n == 1, n > 1, n != 1): the first
// caller wins, as with SET NX. A reply compared with a limit, or used any
// other way, is a counter.
func DecidesByOne(pass *analysis.Pass, call *ast.CallExpr) bool {
	if expiryWindow(pass, call) {
		return false
	}
	return decidedBy(pass, call, func(_ *ast.FuncDecl, e ast.Expr) tri {
		tv, ok := pass.TypesInfo.Types[e]
		switch {
		case ok && tv.Value != nil && tv.Value.String() == "1":
			return yes
		case ok && tv.IsNil():
			return neutral
		}
		return no
	})
}

// expiryWindow reports whether the reply of an INCR is used only to
// start a counter's window: n == 1 guarding nothing but an EXPIRE (if n
// == 1 { rdb.Expire(ctx, key, window) }). That is a rate limit or a
// failure count, whatever its key is called; a lock decides something
// for its caller on the reply (if n > 1 { return busy }).
func expiryWindow(pass *analysis.Pass, call *ast.CallExpr) bool {
	fd := declIn(callPath(pass, call))
	if fd == nil {
		return false
	}
	info := pass.TypesInfo
	var reply types.Object
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || reply != nil || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return reply == nil
		}
		inRhs := false
		ast.Inspect(as.Rhs[0], func(m ast.Node) bool {
			inRhs = inRhs || m == call
			return !inRhs
		})
		if id, ok := as.Lhs[0].(*ast.Ident); ok && inRhs && id.Name != "_" {
			reply = info.ObjectOf(id)
		}
		return reply == nil
	})
	if reply == nil {
		return false
	}
	window, other := false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			be, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr)
			if !ok || !usesObj(info, be, reply) {
				return true
			}
			x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
			if id, ok := y.(*ast.Ident); ok && info.Uses[id] == reply {
				x, y = y, x
			}
			tv := info.Types[y]
			if id, ok := x.(*ast.Ident); !ok || info.Uses[id] != reply || be.Op != token.EQL || tv.Value == nil || tv.Value.String() != "1" || n.Else != nil || !onlyExpires(n.Body) {
				other = true
				return false
			}
			window = true
			return false
		case *ast.Ident:
			if info.Uses[n] == reply {
				other = true // read some other way
			}
		}
		return true
	})
	return window && !other
}

func usesObj(info *types.Info, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// onlyExpires reports whether every statement of b is a call of a
// method named EXPIRE-like (go-redis Expire, PExpire, ExpireAt ...).
func onlyExpires(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	for _, st := range b.List {
		found := false
		ast.Inspect(st, func(n ast.Node) bool {
			// Inspect goes on to the siblings of a match (the call's
			// arguments): a later selector (time.Hour) must not undo it.
			switch n := n.(type) {
			case *ast.SelectorExpr: // rdb.Expire(...)
				found = found || expireName(n.Sel.Name)
			case *ast.BasicLit: // conn.Do("EXPIRE", ...)
				found = found || len(n.Value) > 2 && expireName(n.Value[1:len(n.Value)-1])
			}
			return !found
		})
		if !found {
			return false
		}
	}
	return true
}

func expireName(s string) bool {
	switch strings.ToLower(s) {
	case "expire", "pexpire", "expireat", "pexpireat":
		return true
	}
	return false
}

// DecidesByOldValue reports whether the reply of a GETSET call (the old
// value) is compared with the empty string or nil (nobody held the key:
// ours now), or with a value a GET read before (the expired stamp we
// replace: ours when nobody replaced it first), and with nothing else.
func DecidesByOldValue(pass *analysis.Pass, call *ast.CallExpr) bool {
	return decidedBy(pass, call, func(fd *ast.FuncDecl, e ast.Expr) tri {
		tv, ok := pass.TypesInfo.Types[e]
		switch {
		case ok && (tv.IsNil() || tv.Value != nil && tv.Value.ExactString() == `""`):
			return yes
		case readByGet(pass, fd, e):
			return yes
		}
		return no
	})
}

// readByGet reports whether e is a variable assigned from a GET reply in
// fd (expires, err = conn.Get(ctx, key).Int64()).
func readByGet(pass *analysis.Pass, fd *ast.FuncDecl, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || pass.TypesInfo.Uses[id] == nil {
		return false
	}
	obj := pass.TypesInfo.Uses[id]
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return !found
		}
		if l, ok := as.Lhs[0].(*ast.Ident); !ok || pass.TypesInfo.ObjectOf(l) != obj {
			return true
		}
		ast.Inspect(as.Rhs[0], func(m ast.Node) bool {
			if c, ok := m.(*ast.CallExpr); ok && clientCall(pass.TypesInfo, c) {
				if fn, _ := typeutil.Callee(pass.TypesInfo, c).(*types.Func); fn != nil && fn.Name() == "Get" {
					found = true
				}
			}
			return !found
		})
		return !found
	})
	return found
}

type tri int

const (
	no tri = iota
	yes
	neutral
)

// decidedBy reports whether every read of call's reply is a comparison
// that accept says yes or neutral to, and at least one says yes: the
// reply decides who won.
func decidedBy(pass *analysis.Pass, call *ast.CallExpr, accept func(*ast.FuncDecl, ast.Expr) tri) bool {
	path := callPath(pass, call)
	fd := declIn(path)
	if fd == nil {
		return false
	}
	// The variables holding the reply: assigned from the call (through
	// .Result()/.Val() or a client reply helper such as redis.Int), or
	// from a reply helper given one of them (n, err := redis.Int(reply, err)).
	vars := map[types.Object]bool{}
	holds := func(e ast.Expr) bool {
		for {
			e = ast.Unparen(e)
			switch x := e.(type) {
			case *ast.CallExpr:
				if x == call {
					return true
				}
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Result" || sel.Sel.Name == "Val" || sel.Sel.Name == "Int64" || sel.Sel.Name == "Int") && len(x.Args) == 0 {
					e = sel.X
					continue
				}
				if clientCall(pass.TypesInfo, x) && len(x.Args) > 0 {
					e = x.Args[0]
					continue
				}
				return false
			case *ast.Ident:
				return vars[pass.TypesInfo.Uses[x]]
			}
			return false
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && len(as.Lhs) > 0 && holds(as.Rhs[0]) {
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
				vars[pass.TypesInfo.ObjectOf(id)] = true
			}
		}
		return true
	})
	if len(vars) == 0 {
		return false
	}
	one, other := false, false
	// Every read of the reply must be a comparison or feed another holder
	// of it: returned or passed on, the caller decides what it means.
	seen := map[*ast.Ident]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && holds(as.Rhs[0]) {
			ast.Inspect(as.Rhs[0], func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					seen[id] = true
				}
				return true
			})
		}
		return true
	})
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if !ok {
			return true
		}
		switch be.Op.String() {
		case "==", "!=", "<", "<=", ">", ">=":
		default:
			return true
		}
		for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			id, ok := ast.Unparen(pair[0]).(*ast.Ident)
			if !ok || !vars[pass.TypesInfo.Uses[id]] {
				continue
			}
			seen[id] = true
			switch accept(fd, pair[1]) {
			case yes:
				one = true
			case no:
				other = true
			}
		}
		return true
	})
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, r := range as.Rhs {
				ast.Inspect(r, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && vars[pass.TypesInfo.Uses[id]] && !seen[id] {
						other = true
					}
					return true
				})
			}
			return false // a reassignment of the reply is no read
		}
		if id, ok := n.(*ast.Ident); ok && vars[pass.TypesInfo.Uses[id]] && !seen[id] {
			other = true
		}
		return true
	})
	return one && !other
}

// queuedAndDropped reports whether a command queued in a pipeline or a
// transaction is a statement of its own (its *Cmd dropped) in a function
// that never reads the queued results (_, err := pipe.Exec(ctx)): nobody
// can see whether its NX won.
func queuedAndDropped(pass *analysis.Pass, op *Op) bool {
	path := callPath(pass, op.Call)
	if len(path) < 2 || path[0] != op.Call {
		return false
	}
	if _, ok := path[1].(*ast.ExprStmt); !ok {
		return false
	}
	fd := declIn(path)
	if fd == nil {
		return false
	}
	read := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		switch sel.Sel.Name {
		case "Exec", "Pipelined", "TxPipelined":
			if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name != "_" {
				read = true // the queued results come back and may be read
			}
		}
		return true
	})
	return !read
}

// declIn returns the declared function in a path from callPath, or nil.
func declIn(path []ast.Node) *ast.FuncDecl {
	for _, n := range path {
		if fd, ok := n.(*ast.FuncDecl); ok {
			return fd
		}
	}
	return nil
}

// isRadixAction reports whether op is a radix action built here, whose
// reply goes into its receiver rather than a result of the call.
func isRadixAction(op *Op) bool {
	return op.Cmd != nil && op.Cmd.Client == redismodel.Radix && op.Via == nil && op.Call == op.Cmd.Call
}

// RadixReplyDropped reports whether nothing reads a radix action's reply:
// its receiver is nil, or a local variable (radix.Cmd(&reply, ...)) that
// the function never mentions elsewhere.
func RadixReplyDropped(pass *analysis.Pass, op *Op) bool {
	rcv := ast.Unparen(op.Cmd.ReplyTo)
	if tv, ok := pass.TypesInfo.Types[rcv]; ok && tv.IsNil() {
		return true
	}
	v := op.Cmd.ReplyVar()
	var body *ast.BlockStmt
	switch {
	case op.In.Lit != nil:
		body = op.In.Lit.Body
	case op.In.Decl != nil:
		body = op.In.Decl.Body
	}
	if v == nil || body == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return false // not a variable of this function: read elsewhere, maybe
	}
	read := false
	ast.Inspect(body, func(n ast.Node) bool {
		if x, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[x] == v && !within(x, rcv) {
			read = true
		}
		return !read
	})
	return !read
}

func within(n, outer ast.Node) bool { return outer.Pos() <= n.Pos() && n.End() <= outer.End() }
