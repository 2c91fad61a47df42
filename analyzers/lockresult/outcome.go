package lockresult

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// verdict is what the code does with an acquire's outcome.
type verdict int

const (
	unknown   verdict = iota // passed on, returned, stored: not judged here
	discarded                // nothing is looked at
	returned                 // returned unchanged to the caller (see AcquireFact)
	errOnly                  // only the error is looked at, and the value is the signal
	checked                  // the outcome reaches variables or a condition
)

// outcome is how one acquire's results are received.
type outcome struct {
	verdict verdict
	result  *ast.CallExpr // the call whose results hold the outcome (SetNX(...).Result(), redis.String(conn.Do(...)))
	stmt    ast.Node      // the statement that receives them
	// Operands that carry the outcome: variables, or the result call
	// itself when it is used directly in a condition.
	ok, reply, handle, err operand
	// errDiscarded: a library acquire whose error went to _.
	errDiscarded bool
	// fact is set when the outcome is returned unchanged.
	fact *AcquireFact
}

// operand is a variable or an expression that holds part of an outcome.
type operand struct {
	v *types.Var
	e ast.Expr
}

func (o operand) valid() bool { return o.v != nil || o.e != nil }

// matches reports whether x is the operand.
func (o operand) matches(info *types.Info, x ast.Expr) bool {
	x = ast.Unparen(x)
	if o.e != nil && x == o.e {
		return true
	}
	if id, ok := x.(*ast.Ident); ok && o.v != nil {
		return info.Uses[id] == o.v
	}
	return false
}

// outcomeOf follows the results of a through method calls on a go-redis
// *Cmd, redigo's conversion helpers and rueidis's Do, to the statement
// that receives them.
func outcomeOf(info *types.Info, file *ast.File, fd *ast.FuncDecl, a *acquire) outcome {
	call := a.call
	okAt, replyAt, handleAt, errAt := a.okAt, a.replyAt, a.handleAt, a.errAt
	path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
	i := 0
	for i < len(path) && path[i] != ast.Node(call) {
		i++
	}
	parent := func() ast.Node {
		if i+1 < len(path) {
			return path[i+1]
		}
		return nil
	}
	skipParens := func() {
		for {
			if _, ok := parent().(*ast.ParenExpr); !ok {
				return
			}
			i++
		}
	}
	skipParens()

	if a.cmd != nil && a.cmd.Client == redismodel.Rueidis {
		// Build() is passed to client.Do(ctx, cmd).
		do, ok := parent().(*ast.CallExpr)
		if !ok || !isRueidisDo(info, do) {
			return outcome{}
		}
		i++
		call = do
		skipParens()
	}
	if a.cmd != nil && a.cmd.Client != redismodel.Redigo && a.cmd.Client != redismodel.GoZero {
		// The call returns a *Cmd or a RedisResult: look at the method used.
		sel, ok := parent().(*ast.SelectorExpr)
		if !ok {
			if st, ok := parent().(*ast.ExprStmt); ok {
				return outcome{verdict: discarded, stmt: st}
			}
			if as, ok := parent().(*ast.AssignStmt); ok && len(as.Lhs) == 1 && isBlank(as.Lhs[0]) {
				return outcome{verdict: discarded, stmt: as}
			}
			use := soleUse(info, fd, parent())
			if use == nil {
				return cmdVariable(info, file, a, parent())
			}
			// cmd := rdb.SetNX(...); ok, err := cmd.Result(): judged where
			// the command's only use reads it, as if read at the call.
			path, _ = astutil.PathEnclosingInterval(file, use.Pos(), use.End())
			i = 0
			for i < len(path) && path[i] != ast.Node(use) {
				i++
			}
			skipParens()
			if sel, ok = parent().(*ast.SelectorExpr); !ok {
				return outcome{}
			}
		}
		if i+2 >= len(path) {
			return outcome{}
		}
		mcall, ok := path[i+2].(*ast.CallExpr)
		if !ok || mcall.Fun != sel {
			return outcome{}
		}
		call, i = mcall, i+2
		skipParens()
		okAt, replyAt, handleAt, errAt = -1, -1, -1, -1
		value := func(at int) {
			if a.signal == byValue {
				okAt = at
			} else {
				replyAt = at
			}
		}
		switch sel.Sel.Name {
		case "Err", "Error":
			errAt = 0
		case "Result", "AsBool", "ToString", "AsInt64":
			value(0)
			errAt = 1
		case "Val":
			value(0)
		default:
			return outcome{}
		}
	} else if a.cmd != nil {
		// redigo: redis.String(conn.Do(...)) and friends.
		if conv, ok := parent().(*ast.CallExpr); ok && len(conv.Args) == 1 && ast.Unparen(conv.Args[0]) == ast.Expr(call) {
			fn, _ := typeutil.Callee(info, conv).(*types.Func)
			if fn == nil || fn.Pkg() == nil || !isRedigoPath(fn.Pkg().Path()) {
				return outcome{}
			}
			call, i = conv, i+1
			skipParens()
			okAt, replyAt, errAt = -1, 0, 1
			if a.cmd.Name == "SET" {
				a.signal = byError // nil reply → ErrNil
			} else if fn.Name() == "Bool" {
				okAt, replyAt = 0, -1
			}
		}
	}

	out := outcome{result: call}
	switch p := parent().(type) {
	case *ast.ExprStmt:
		out.verdict, out.stmt = discarded, p
		return out
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 {
			return outcome{}
		}
		out.stmt = p
		at := func(k int) (operand, bool) {
			if k < 0 || k >= len(p.Lhs) {
				return operand{}, false
			}
			if isBlank(p.Lhs[k]) {
				return operand{}, true
			}
			id, ok := p.Lhs[k].(*ast.Ident)
			if !ok {
				return operand{}, false // stored in a field: not judged
			}
			v, _ := info.ObjectOf(id).(*types.Var)
			return operand{v: v}, v != nil
		}
		var ok [4]bool
		out.ok, ok[0] = at(okAt)
		out.reply, ok[1] = at(replyAt)
		out.handle, ok[2] = at(handleAt)
		out.err, ok[3] = at(errAt)
		for k, at := range []int{okAt, replyAt, handleAt, errAt} {
			if at >= 0 && !ok[k] {
				return outcome{}
			}
		}
		if f := returnsLibOutcome(info, fd, call, out.handle.v, out.err.v); f != nil && a.lib {
			// lock, err := Obtain(...); if err == nil { return lock, true,
			// nil } ... return nil, false, err: the caller gets the
			// outcome as a bool and an error, and judges them.
			f.Signal, f.Lib = int(byValue), true
			return outcome{verdict: returned, result: call, stmt: p, fact: f}
		}
		if f := returnsVars(info, fd, out.ok.v, out.err.v); f != nil && a.signal == byValue {
			// ok, err := rdb.SetNX(...).Result() ... return ok, nil: the
			// caller gets the outcome and judges it.
			f.Signal, f.Lib = int(a.signal), a.lib
			return outcome{verdict: returned, result: call, stmt: p, fact: f}
		}
	case *ast.ReturnStmt:
		if okAt < 0 && replyAt < 0 && handleAt < 0 && a.signal == byValue {
			// return rdb.SetNX(...).Err(): the bool is lost here.
			return outcome{verdict: errOnly, stmt: p}
		}
		if f := returnedBy(info, fd, path, p, call, [4]int{okAt, replyAt, handleAt, errAt}); f != nil {
			f.Signal, f.Lib = int(a.signal), a.lib
			return outcome{verdict: returned, result: call, stmt: p, fact: f}
		}
		return outcome{}
	case *ast.CallExpr, *ast.CompositeLit, *ast.KeyValueExpr, *ast.SendStmt, *ast.ValueSpec:
		return outcome{}
	default:
		// Used directly in an expression: if !rdb.SetNX(...).Val(), ... != nil.
		if n := resultCount(info, call); n != 1 {
			return outcome{}
		}
		e := operand{e: call}
		switch {
		case okAt == 0:
			out.ok = e
		case replyAt == 0:
			out.reply = e
		case errAt == 0:
			out.err = e
		case handleAt == 0:
			out.handle = e
		}
	}
	return judge(info, a, out)
}

// judge decides the verdict from the operands that were kept.
func judge(info *types.Info, a *acquire, out outcome) outcome {
	value := out.ok.valid() || out.reply.valid() || out.handle.valid()
	switch {
	case !value && !out.err.valid():
		out.verdict = discarded
	case a.lib && out.handle.valid() && !out.err.valid():
		// lease, _ := TryAcquire(...): fine only if the lease is checked for nil.
		out.errDiscarded = true
		out.verdict = checked
	case !value && a.signal == byValue:
		out.verdict = errOnly
	default:
		out.verdict = checked
	}
	return out
}

// cmdVariable handles cmd := rdb.SetNX(...) when every later use of cmd
// is cmd.Err(): the bool is never read.
func cmdVariable(info *types.Info, file *ast.File, a *acquire, p ast.Node) outcome {
	as, ok := p.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || a.signal != byValue {
		return outcome{}
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return outcome{}
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	if v == nil {
		return outcome{}
	}
	errs, others := 0, 0
	// _, err := cmd.Result() drops the value as cmd.Err() does.
	dropped := map[*ast.SelectorExpr]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 2 && len(as.Rhs) == 1 && isBlank(as.Lhs[0]) {
			if c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
				if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Result" {
					dropped[sel] = true
				}
			}
		}
		return true
	})
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := ast.Unparen(n.X).(*ast.Ident); ok && info.Uses[x] == v {
				if n.Sel.Name == "Err" || dropped[n] {
					errs++
				} else {
					others++
				}
				return false
			}
		case *ast.Ident:
			if info.Uses[n] == v {
				others++
			}
		}
		return true
	})
	if errs == 0 || others > 0 {
		return outcome{}
	}
	return outcome{verdict: errOnly, stmt: as}
}

// soleUse returns the only use in fd of the variable that p, an
// assignment of one command (cmd := rdb.SetNX(...)), declares or sets,
// when the variable is a local used nowhere else (not in a function
// literal either); nil otherwise.
func soleUse(info *types.Info, fd *ast.FuncDecl, p ast.Node) *ast.Ident {
	as, ok := p.(*ast.AssignStmt)
	if !ok || fd == nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	if v == nil || v.Pos() < fd.Pos() || v.Pos() >= fd.End() {
		return nil
	}
	var uses []*ast.Ident
	var lits []*ast.FuncLit
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			lits = append(lits, x)
		case *ast.Ident:
			if info.Uses[x] == v {
				uses = append(uses, x)
			}
		}
		return true
	})
	if len(uses) != 1 {
		return nil
	}
	for _, l := range lits {
		if l.Pos() <= uses[0].Pos() && uses[0].End() <= l.End() {
			return nil // read when the literal runs, not here
		}
	}
	return uses[0]
}

func isBlank(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "_"
}

func isRedigoPath(path string) bool {
	return path == "github.com/gomodule/redigo/redis" || path == "github.com/garyburd/redigo/redis"
}

// isRueidisDo reports whether call is a rueidis (or valkey-go) client's Do.
func isRueidisDo(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && redismodel.IsRueidisClient(fn.Pkg().Path()) && fn.Name() == "Do"
}

func resultCount(info *types.Info, call *ast.CallExpr) int {
	switch t := info.TypeOf(call).(type) {
	case *types.Tuple:
		return t.Len()
	case nil:
		return 0
	}
	return 1
}

// returnsVars maps an acquire's bool (and error) variables onto the results
// of fd when every return statement of fd gives, at one position, the
// bool or the constant false (and at another the error, nil or another
// error): MarkProcessing returning (res, nil) after res, err := SetNX(...).
func returnsVars(info *types.Info, fd *ast.FuncDecl, ok, errv *types.Var) *AcquireFact {
	if ok == nil || fd.Type.Results == nil {
		return nil
	}
	okAt, errAt := -1, -1
	var rets []*ast.ReturnStmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			rets = append(rets, n)
		}
		return true
	})
	is := func(e ast.Expr, v *types.Var) bool {
		id, isID := ast.Unparen(e).(*ast.Ident)
		return isID && v != nil && info.Uses[id] == v
	}
	for _, r := range rets {
		for i, e := range r.Results {
			if is(e, ok) {
				if okAt >= 0 && okAt != i {
					return nil
				}
				okAt = i
			}
			if is(e, errv) {
				errAt = i
			}
		}
	}
	if okAt < 0 {
		return nil
	}
	for _, r := range rets {
		if okAt >= len(r.Results) {
			return nil // a bare return of named results: not followed
		}
		e := r.Results[okAt]
		if is(e, ok) {
			continue
		}
		if tv, found := info.Types[e]; !found || tv.Value == nil || tv.Value.String() != "false" {
			return nil
		}
	}
	return &AcquireFact{OkAt: okAt, ReplyAt: -1, HandleAt: -1, ErrAt: errAt}
}

// returnsLibOutcome maps a library acquire's handle and error onto the
// results of fd, a function answering (handle, bool, error) or (bool,
// error): every return after the acquire gives the constant true only
// inside if err == nil { ... } (with the handle, when fd returns one),
// and the constant false everywhere else. Returns before the acquire
// (no client configured) are fd's own answer and are not judged.
func returnsLibOutcome(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr, handle, errv *types.Var) *AcquireFact {
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || errv == nil {
		return nil
	}
	res := fn.Type().(*types.Signature).Results()
	okAt, errAt, handleAt := -1, -1, -1
	for i := 0; i < res.Len(); i++ {
		switch t := res.At(i).Type(); {
		case isBoolType(t) && okAt < 0:
			okAt = i
		case isError(t) && i == res.Len()-1:
			errAt = i
		}
	}
	if okAt < 0 || errAt < 0 || res.Len() > 3 {
		return nil
	}
	var granted []*ast.BlockStmt // bodies of if err == nil
	var rets []*ast.ReturnStmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if be, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr); ok && be.Op == token.EQL && isVar(info, be.X, errv) && isNilValue(info, be.Y) {
				granted = append(granted, n.Body)
			}
		case *ast.ReturnStmt:
			if n.Pos() > call.End() {
				rets = append(rets, n)
			}
		}
		return true
	})
	trues := 0
	for _, r := range rets {
		if len(r.Results) != res.Len() {
			return nil
		}
		tv, found := info.Types[r.Results[okAt]]
		if !found || tv.Value == nil {
			return nil // the bool is computed: not this shape
		}
		switch tv.Value.String() {
		case "true":
			inside := slices.ContainsFunc(granted, func(b *ast.BlockStmt) bool { return b.Pos() <= r.Pos() && r.End() <= b.End() })
			if !inside || !isNilValue(info, r.Results[errAt]) {
				return nil
			}
			trues++
			if res.Len() == 3 {
				h := 3 - okAt - errAt
				if !isVar(info, r.Results[h], handle) {
					return nil
				}
				handleAt = h
			}
		case "false":
		default:
			return nil
		}
	}
	if trues == 0 {
		return nil
	}
	return &AcquireFact{OkAt: okAt, ReplyAt: -1, HandleAt: handleAt, ErrAt: errAt}
}

// radixV2Outcome judges what is done with the *redis.Resp of a radix.v2
// acquire: nothing (discarded), or only its Err field (errOnly: a held
// lock is a nil reply with a nil Err). Any other use (Str, Int, IsType,
// passing it on) reads the reply or may: unknown.
func radixV2Outcome(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) verdict {
	var parent ast.Node
	var resp *types.Var
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if parent != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.ExprStmt:
			if ast.Unparen(n.X) == ast.Expr(call) {
				parent = n
			}
		case *ast.SelectorExpr:
			if ast.Unparen(n.X) == ast.Expr(call) {
				parent = n
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && ast.Unparen(n.Rhs[0]) == ast.Expr(call) {
				parent = n
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					resp, _ = info.ObjectOf(id).(*types.Var)
				}
			}
		}
		return true
	})
	errField := func(sel *ast.SelectorExpr) bool {
		s, ok := info.Selections[sel]
		return ok && s.Kind() == types.FieldVal && sel.Sel.Name == "Err"
	}
	switch p := parent.(type) {
	case *ast.ExprStmt:
		return discarded
	case *ast.SelectorExpr:
		if errField(p) {
			return errOnly
		}
	case *ast.AssignStmt:
		if resp == nil {
			return unknown
		}
		uses, errs := 0, 0
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && errField(sel) {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == resp {
					uses++
					errs++
					return false
				}
			}
			if id, ok := n.(*ast.Ident); ok && info.Uses[id] == resp {
				uses++
			}
			return true
		})
		if uses == 0 {
			return discarded
		}
		if uses == errs {
			return errOnly
		}
	}
	return unknown
}
