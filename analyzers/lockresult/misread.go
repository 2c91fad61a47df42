package lockresult

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/luascript"
	"github.com/locklint/locklint/analyzers/internal/section"
)

// returnsSetStatus finds "return redis.call('set', ...)" in Lua: the reply
// of a SET (without GET) is the status "OK".
var (
	returnsSetStatus = regexp.MustCompile(`(?i)return\s+redis\.p?call\(\s*['"]set['"]([^)]*)\)`)
	getOption        = regexp.MustCompile(`(?i)['"]get['"]`)
)

// numericReaders are go-redis Cmd methods that cannot parse "OK".
var numericReaders = map[string]bool{"Bool": true, "Int": true, "Int64": true, "Uint64": true, "Float64": true, "Float32": true}

// misreadScripts reports a lock script whose success reply is the SET
// status "OK" read with Cmd.Bool() or Cmd.Int(): go-redis cannot parse
// "OK" as a bool or a number, so a successful acquire comes back as an
// error (and the lock stays held until its TTL), while "held elsewhere"
// (a nil reply) comes back as redis.Nil.
func (r *runner) misreadScripts(fd *ast.FuncDecl) {
	var parent map[ast.Node]ast.Node
	for _, c := range r.res.Calls[fd] {
		cmd := c.Cmd
		if cmd == nil || cmd.Script == nil || cmd.Name != "EVAL" && cmd.Name != "EVALSHA" || !acquiresWithSet(cmd.Script) {
			continue
		}
		if parent == nil {
			parent = section.Parents(fd)
		}
		sel, ok := parent[c.Call].(*ast.SelectorExpr)
		if !ok || !numericReaders[sel.Sel.Name] {
			continue
		}
		if call, ok := parent[sel].(*ast.CallExpr); !ok || call.Fun != sel {
			continue
		}
		r.pass.Report(analysis.Diagnostic{
			Pos: c.Call.Pos(), End: sel.End(),
			Message: fmt.Sprintf("the lock script returns the reply of SET, the status \"OK\", but it is read with %s(): "+
				"go-redis cannot parse \"OK\" as a %s, so a successful acquire comes back as an error (and the lock stays held until its TTL); "+
				"return 1 from the script (return redis.call('SET', ...) and 1), or read the reply with Text()/Result()", sel.Sel.Name, readerKind(sel.Sel.Name)),
		})
	}
}

// acquiresWithSet reports whether the script returns the status of a
// SET that writes a value (not SET ... GET, which returns the old value).
func acquiresWithSet(s *luascript.Script) bool {
	for _, m := range returnsSetStatus.FindAllStringSubmatch(s.Text, -1) {
		if !getOption.MatchString(m[1]) {
			return true
		}
	}
	return false
}

func readerKind(m string) string {
	if m == "Bool" {
		return "bool"
	}
	return "number"
}

// getsetSelfCompare reports the takeover of an expired lock with GETSET
// whose reply — the value the key held before — is compared with the
// value just written: the takeover succeeds when the old value was the
// expired timestamp read before, so this test is true only when another
// contender wrote the same value, and the real winner reads its own
// takeover as a failure.
func (r *runner) getsetSelfCompare(fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	for _, c := range r.res.Calls[fd] {
		cmd := c.Cmd
		if cmd == nil || cmd.Name != "GETSET" && (cmd.Name != "SET" || !cmd.Opts.Get) {
			continue
		}
		value := cmd.Value
		if value == nil && cmd.Name == "GETSET" && len(cmd.Call.Args) > 0 {
			value = cmd.Call.Args[len(cmd.Call.Args)-1] // GetSet(ctx, key, v), Do("GETSET", key, v)
		}
		val, ok := ast.Unparen(value).(*ast.Ident)
		if !ok || info.Uses[val] == nil {
			continue
		}
		reply := section.NewFlow(info, fd, func(x *ast.CallExpr) bool { return x == c.Call })
		at := firstComparison(fd.Body, c.Call.End(), false, func(x, y ast.Expr) bool {
			id, ok := ast.Unparen(x).(*ast.Ident)
			return ok && info.Uses[id] == info.Uses[val] && reply.Reaches(y)
		})
		if at == nil {
			continue
		}
		r.pass.Report(analysis.Diagnostic{
			Pos: c.Call.Pos(), End: c.Call.End(),
			Message: fmt.Sprintf("%s returns the value the lock held before, but it is compared with %s, the value just written: "+
				"the takeover is won when the old value is the expired one read earlier, so this reads a win as a failure and "+
				"another contender's same-second write as a win; compare with the expired value, or use SET NX PX and a token", cmd.Name, val.Name),
			Related: []analysis.RelatedInformation{{Pos: at.Pos(), End: at.End(), Message: "compared here"}},
		})
	}
}

// mistypedReply reports a lock acquire whose raw reply, an interface{}
// (go-redis Cmd.Result() or Val() of a script or Do, redigo's Do), is
// compared with an int constant: Redis integers arrive as int64, and an
// interface holding int64(0) never equals int 0, so f == 0 is never true
// (and f != 0 always is). A refusal then reads as a grant, or a grant as
// a refusal.
func (r *runner) mistypedReply(fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	var parent map[ast.Node]ast.Node
	for _, c := range r.res.Calls[fd] {
		if c.Cmd == nil {
			continue
		}
		if op := r.acquireOp(fd, c.Call); op == nil || op.Judged || !lockish(op, fd) {
			continue
		}
		reply := section.NewFlow(info, fd, func(x *ast.CallExpr) bool { return x == c.Call })
		if parent == nil {
			parent = section.Parents(fd)
		}
		// Only a test for refusal that can never be true matters: if f == 0
		// { return false } lets every refusal through as a grant. A dead
		// test for success (if res == 0 { return &Lock{...} }) only fails
		// closed.
		at := firstComparison(fd.Body, c.Call.End(), true, func(x, y ast.Expr) bool {
			if !isEmptyInterface(info, x) || !intConstNotInt64(info, y) || !reply.Reaches(x) {
				return false
			}
			be, _ := parent[x].(*ast.BinaryExpr)
			// if f == 0 { return false }: never true. if res != 0 { break }
			// (out of the retry loop, into the work): always true.
			return be != nil && (be.Op == token.EQL && refusalTest(info, parent, be) ||
				be.Op == token.NEQ && isZero(info, y) && successExit(info, parent, be))
		})
		if at == nil {
			continue
		}
		what := "this test for a refusal is never true"
		if at.Op == token.NEQ {
			what = "this test for a grant is always true"
		}
		r.pass.Report(analysis.Diagnostic{
			Pos: c.Call.Pos(), End: c.Call.End(),
			Message: fmt.Sprintf("the reply of this acquire is an interface{} holding an int64, but %s compares it with an int: "+
				"an int64 in an interface never equals an int, so %s and a refused acquire "+
				"reads as a grant; read the reply as a number (Int64(), redis.Int64) or compare with int64(...)", fixes.Source(r.pass, at), what),
			Related: []analysis.RelatedInformation{{Pos: at.Pos(), End: at.End(), Message: "compared here"}},
		})
	}
}

// ifOf returns the if statement whose condition is be, or be joined to
// other tests with op (|| for a refusal, && for a grant), when its body
// is not empty.
func ifOf(parent map[ast.Node]ast.Node, be *ast.BinaryExpr, op token.Token) *ast.IfStmt {
	var n ast.Node = be
	for {
		switch p := parent[n].(type) {
		case *ast.BinaryExpr:
			if p.Op != op {
				return nil
			}
			n = p
		case *ast.ParenExpr:
			n = p
		case *ast.IfStmt:
			if p.Cond != n || len(p.Body.List) == 0 {
				return nil
			}
			return p
		default:
			return nil
		}
	}
}

// refusalTest reports whether the comparison be is an if condition (or
// one side of its ||) whose branch leaves as a failure: a return of only
// false, nil, zero values and errors (or a bare return), a continue or a
// break.
func refusalTest(info *types.Info, parent map[ast.Node]ast.Node, be *ast.BinaryExpr) bool {
	ifs := ifOf(parent, be, token.LOR)
	if ifs == nil {
		return false
	}
	switch last := ifs.Body.List[len(ifs.Body.List)-1].(type) {
	case *ast.BranchStmt:
		return last.Tok == token.CONTINUE || last.Tok == token.BREAK
	case *ast.ReturnStmt:
		for _, r := range last.Results {
			if !failureValue(info, r) {
				return false
			}
		}
		return true
	}
	return false
}

// successExit reports whether the comparison be is an if condition (or
// one side of its &&) whose branch leaves as a success: a break out of
// the retry loop, or a return of true.
func successExit(info *types.Info, parent map[ast.Node]ast.Node, be *ast.BinaryExpr) bool {
	ifs := ifOf(parent, be, token.LAND)
	if ifs == nil {
		return false
	}
	switch last := ifs.Body.List[len(ifs.Body.List)-1].(type) {
	case *ast.BranchStmt:
		return last.Tok == token.BREAK && last.Label == nil
	case *ast.ReturnStmt:
		if len(last.Results) == 0 {
			return false
		}
		tv, ok := info.Types[last.Results[0]]
		return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
	}
	return false
}

func isZero(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}

// failureValue reports whether a returned value says "not acquired":
// false, nil, a zero constant, or an error.
func failureValue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok {
		return false
	}
	switch {
	case tv.IsNil():
		return true
	case tv.Value != nil:
		return tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value) ||
			tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0 ||
			tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
	}
	return types.Implements(tv.Type, types.Universe.Lookup("error").Type().Underlying().(*types.Interface))
}

func isEmptyInterface(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Type == nil {
		return false
	}
	it, ok := tv.Type.Underlying().(*types.Interface)
	return ok && it.Empty()
}

// intConstNotInt64 reports whether e is an integer constant that, compared
// with an interface, is boxed as another type than int64 (an untyped
// constant becomes an int).
func intConstNotInt64(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && b.Kind() != types.Int64
}

// firstComparison returns the first == or != in body after pos whose
// operands, one way round, satisfy match(x, y); skipLits leaves out
// function literals. nil when there is none.
func firstComparison(body ast.Node, after token.Pos, skipLits bool, match func(x, y ast.Expr) bool) *ast.BinaryExpr {
	var at *ast.BinaryExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok && skipLits {
			return false
		}
		be, ok := n.(*ast.BinaryExpr)
		if !ok || at != nil || be.Pos() < after || be.Op != token.EQL && be.Op != token.NEQ {
			return at == nil
		}
		if match(be.X, be.Y) || match(be.Y, be.X) {
			at = be
		}
		return at == nil
	})
	return at
}
