package lockresult

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/section"
)

// misreads runs the checks of acquires whose outcome is read the wrong
// way round, or not at all, through a helper.
func (r *runner) misreads(fd *ast.FuncDecl) {
	r.failOpen(fd)
	r.failOpenByError(fd)
	r.failSilently(fd)
	r.droppedHelperAcquires(fd)
	r.inverted(fd)
	r.misreadScripts(fd)
	r.getsetSelfCompare(fd)
	r.mistypedReply(fd)
	r.plainSetAcquire(fd)
	r.zeroReplyDropped(fd)
}

// failOpen reports acquire wrappers that answer "acquired" when the
// acquire failed: a function with a bool result whose acquire's error
// branch reaches "return true" (fail-open on a Redis error). Its callers
// run the critical section without the lock, however deliberate the
// choice is.
func (r *runner) failOpen(fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	results := fn.Type().(*types.Signature).Results()
	okAt := -1
	for i := 0; i < results.Len(); i++ {
		if isBoolType(results.At(i).Type()) {
			okAt = i
			break
		}
	}
	if okAt < 0 {
		return
	}
	acquires := map[*ast.CallExpr]string{}
	// busyIfTrue holds the INCR acquires whose wrapper answers "held by
	// someone else" with true (return n > 1): for them, false is the
	// answer that lets the caller in.
	busyIfTrue := map[*ast.CallExpr]bool{}
	for _, c := range r.res.Calls[fd] {
		if c.Cmd == nil {
			continue
		}
		if name := failOpenAcquire(info, c.Cmd); name != "" {
			if op := r.acquireOp(fd, c.Call); op != nil && lockLike(op, fd) {
				acquires[c.Call] = name
			}
		} else if c.Cmd.Name == "INCR" && !c.Cmd.In.Multi && !c.Cmd.In.Pipeline {
			op := r.acquireOp(fd, c.Call)
			if op == nil || !lockLike(op, fd) {
				continue
			}
			if busy, known := incrAnswer(info, fd, c.Call, okAt); known {
				acquires[c.Call], busyIfTrue[c.Call] = "INCR", busy
			}
		}
	}
	// INCR locks whose error nobody reads: on a Redis error the count is
	// 0 (go-redis) or what the project's client answers then (-1).
	for _, op := range r.res.Funcs[fd] {
		if op.Kind != lifecycle.Acquire || op.Command != "INCR" || op.In.Multi || op.In.Pipeline || !lockLike(op, fd) {
			continue
		}
		if ret := incrFailsOpen(info, fd, op.Call, okAt); ret != nil {
			r.pass.Report(analysis.Diagnostic{
				Pos: op.Call.Pos(), End: op.Call.End(),
				Message: fmt.Sprintf("the error of the INCR that takes lock %s is discarded: when Redis fails (unreachable, a timeout), the count reads 0 "+
					"(or the client's own answer, such as -1), so %s answers that the lock is free and its caller runs the critical section "+
					"without it; check the error and answer \"held\" (or return the error), or use safelock.Locker.TryAcquire",
					op.KeyText(), fd.Name.Name),
				Related: []analysis.RelatedInformation{{Pos: ret.Pos(), End: ret.End(), Message: "the answer read from the count"}},
			})
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if a := libAcquire(info, call); a != nil {
			acquires[call] = a.name
		} else if a := r.wrapperAcquire(fd, call); a != nil && !a.unjudged {
			acquires[call] = a.name
		} else if name := namedAcquire(info, call); name != "" {
			acquires[call] = name
		}
		return true
	})
	for call, name := range acquires {
		rets, ok := section.AcquireFailureReturns(info, r.exits.MayReturn, fd, call)
		if !ok {
			continue
		}
		// The answer that lets the caller in: true (acquired), or false
		// (not held) from a wrapper answering whether it is busy, which
		// may still tell of the failure by its error.
		letsIn, answer := isTrue, "true"
		msg := fmt.Sprintf("when %s fails (Redis unreachable, a timeout), %s returns true: its caller takes the lock as held "+
			"and runs the critical section without it, while another holder may be inside; return false with the error "+
			"(a deliberate fail-open still runs the section unlocked)", name, fd.Name.Name)
		if busyIfTrue[call] {
			letsIn, answer = isFalse, "false"
			msg = fmt.Sprintf("when %s fails (Redis unreachable, a timeout), %s returns false, the answer for a free lock: "+
				"its caller runs the critical section without the lock, while another holder may be inside; "+
				"report the failure (return true, or the error) instead", name, fd.Name.Name)
		}
		for _, ret := range rets {
			if len(ret.Results) != results.Len() || !letsIn(info, ret.Results[okAt]) || busyIfTrue[call] && errorReturned(info, results, ret) {
				continue
			}
			r.pass.Report(analysis.Diagnostic{
				Pos: call.Pos(), End: call.End(), Message: msg,
				Related: []analysis.RelatedInformation{{Pos: ret.Pos(), End: ret.End(), Message: answer + " returned after the acquire failed"}},
			})
			break
		}
	}
}

// failOpenByError reports acquire wrappers without a bool result whose
// error says whether the lock is held: the refusal (if !ok) returns an
// error, so callers take a nil error for "held", yet the acquire's own
// error branch returns nil with a usable handle (return func() {}, nil):
// on a Redis error every caller runs the critical section unlocked.
func (r *runner) failOpenByError(fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	results := fn.Type().(*types.Signature).Results()
	if results.Len() == 0 || !isError(results.At(results.Len()-1).Type()) {
		return
	}
	for i := 0; i < results.Len(); i++ {
		if isBoolType(results.At(i).Type()) {
			return // failOpen's
		}
	}
	if results.Len() == 1 && acquireNamed(fd.Name.Name) {
		r.failOpenThroughWrapper(fd)
	}
	for _, ra := range r.refusingAcquires(fd, results) {
		a, name := ra.acquire, ra.name
		refused := "a refused lock returns an error"
		if ra.waits {
			refused = "a refused lock is waited for"
		}
		rets, ok := section.AcquireFailureReturns(info, r.exits.MayReturn, fd, a.call)
		if !ok {
			continue
		}
		for _, ret := range rets {
			if len(ret.Results) != results.Len() || errorReturned(info, results, ret) || returnsNil(info, results, ret) {
				continue
			}
			r.pass.Report(analysis.Diagnostic{
				Pos: a.call.Pos(), End: a.call.End(),
				Message: fmt.Sprintf("when %s fails (Redis unreachable, a timeout), %s returns a nil error, its answer for a lock it holds "+
					"(%s): its callers run the critical section without the lock, while another holder may be inside; "+
					"return the error (a deliberate fail-open still runs the section unlocked)", name, fd.Name.Name, refused),
				Related: []analysis.RelatedInformation{{Pos: ret.Pos(), End: ret.End(), Message: "nil error returned after the acquire failed"}},
			})
			break
		}
	}
}

// failOpenThroughWrapper reports, in fd, an acquire function whose only
// result is an error, a call of this package's error-answering acquire
// (refusesWithError: TryLock(ctx) error) whose failure reaches a nil
// return: if err := l.TryLock(ctx); err != nil { return nil } answers
// "held" exactly when the lock was not taken. A path that meets another
// call of the same acquire on the way (a retry loop calling again) is
// that call's, so a return is judged only by the last call before it.
func (r *runner) failOpenThroughWrapper(fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	calls := map[*types.Func][]*ast.CallExpr{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil && fn.Pkg() == r.pass.Pkg && r.refusesWithError(fn) {
				calls[fn] = append(calls[fn], call)
			}
		}
		return true
	})
	reported := map[*ast.ReturnStmt]bool{}
	for fn, cs := range calls {
		results := fn.Type().(*types.Signature).Results()
		for _, call := range cs {
			rets, found := section.AcquireFailureReturns(info, r.exits.MayReturn, fd, call)
			if !found {
				continue
			}
			for _, ret := range rets {
				if reported[ret] || len(ret.Results) != 1 || errorReturned(info, results, ret) ||
					slices.ContainsFunc(cs, func(c *ast.CallExpr) bool { return call.Pos() < c.Pos() && c.Pos() < ret.Pos() }) {
					continue
				}
				reported[ret] = true
				r.pass.Report(analysis.Diagnostic{
					Pos: call.Pos(), End: call.End(),
					Message: fmt.Sprintf("when %s fails (the lock is held elsewhere, Redis unreachable), %s returns a nil error, its answer for a lock it holds: "+
						"its callers run the critical section without the lock, while another holder may be inside; return the error",
						types.ExprString(call.Fun), fd.Name.Name),
					Related: []analysis.RelatedInformation{{Pos: ret.Pos(), End: ret.End(), Message: "nil error returned after the acquire failed"}},
				})
			}
		}
	}
}

// refusesWithError reports whether fn, a function of this package whose
// only result is an error, answers a refused raw acquire with a non-nil
// error (if !ok { return ErrLocked }): its nil error means "held".
func (r *runner) refusesWithError(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	g := r.declOf(fn)
	return g != nil && g.Body != nil && res.Len() == 1 && isError(res.At(0).Type()) && len(r.refusingAcquires(g, res)) > 0
}

// refusingAcquire is a raw lock acquire whose refusal its function
// answers with a non-nil error, or waits out (waits) to try again.
type refusingAcquire struct {
	*acquire
	waits bool
}

// refusingAcquires returns the raw lock acquires of fd (with results
// results) whose refusal fd answers with a non-nil error (if !ok {
// return ErrLocked }) or waits out (refusalRetries).
func (r *runner) refusingAcquires(fd *ast.FuncDecl, results *types.Tuple) []refusingAcquire {
	info := r.pass.TypesInfo
	file := fixes.File(r.pass, fd.Pos())
	if file == nil {
		return nil
	}
	var out []refusingAcquire
	for _, c := range r.res.Calls[fd] {
		if c.Cmd == nil {
			continue
		}
		a := rawAcquire(info, c.Cmd)
		if a == nil {
			continue
		}
		held := outcomeOf(info, file, fd, a).ok.v // ok in ok, err := rdb.SetNX(...).Result()
		if op := r.acquireOp(fd, c.Call); op == nil || !lockLike(op, fd) || held == nil {
			continue
		}
		if refusalReturnsError(info, fd, results, held) {
			out = append(out, refusingAcquire{acquire: a})
		} else if refusalRetries(info, fd, results, held, a.call) {
			out = append(out, refusingAcquire{acquire: a, waits: true})
		}
	}
	return out
}

// refusalReturnsError reports whether fd answers a refused acquire (its
// bool reply ok tested false: if !ok) with a non-nil error.
func refusalReturnsError(info *types.Info, fd *ast.FuncDecl, results *types.Tuple, ok *types.Var) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || found {
			return false
		}
		ifs, isIf := n.(*ast.IfStmt)
		if !isIf || !negates(info, ifs.Cond, ok) {
			return true
		}
		for _, st := range ifs.Body.List {
			if ret, isRet := st.(*ast.ReturnStmt); isRet && len(ret.Results) == results.Len() && errorReturned(info, results, ret) {
				found = true
			}
		}
		return true
	})
	return found
}

// refusalRetries reports whether fd waits out a refused acquire (its bool
// reply ok false) and tries again: a blocking Lock whose loop around the
// acquire, with no condition, only if ok { break } leaves, and where
// nothing the refusal runs before the next try (after that if, or before
// the acquire) returns a nil error. Its nil error, too, means "held".
func refusalRetries(info *types.Info, fd *ast.FuncDecl, results *types.Tuple, ok *types.Var, acquire *ast.CallExpr) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || found {
			return false
		}
		loop, isFor := n.(*ast.ForStmt)
		if !isFor || loop.Cond != nil || acquire.Pos() < loop.Body.Pos() || acquire.End() > loop.Body.End() {
			return true
		}
		var before []ast.Stmt // the statements the next try runs before the acquire
		for _, st := range loop.Body.List {
			if st.End() <= acquire.Pos() {
				before = append(before, st)
			}
		}
		for i, st := range loop.Body.List {
			ifs, isIf := st.(*ast.IfStmt)
			if !isIf || ifs.Init != nil || ifs.Else != nil || !isVar(info, ifs.Cond, ok) || len(ifs.Body.List) != 1 || !isBreak(ifs.Body.List[0]) {
				continue
			}
			refusal := append(slices.Clip(loop.Body.List[i+1:]), before...)
			if !leavesLoop(refusal) && !returnsNilError(info, results, refusal) {
				found = true
			}
		}
		return true
	})
	return found
}

// isVar reports whether e is the variable v (if ok).
func isVar(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.ObjectOf(id) == v
}

func isBreak(st ast.Stmt) bool {
	br, ok := st.(*ast.BranchStmt)
	return ok && br.Tok == token.BREAK && br.Label == nil
}

// leavesLoop reports whether stmts, in a loop's body, may leave it by a
// break of their own (one not inside a nested for, switch or select), a
// goto or any labelled branch.
func leavesLoop(stmts []ast.Stmt) bool {
	leaves := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, true)
					return false
				}
			case *ast.BranchStmt:
				if m.Label != nil || m.Tok == token.GOTO || m.Tok == token.BREAK && !nested {
					leaves = true
				}
			}
			return true
		})
	}
	for _, st := range stmts {
		walk(st, false)
	}
	return leaves
}

// returnsNilError reports whether stmts hold a return whose error is nil.
func returnsNilError(info *types.Info, results *types.Tuple, stmts []ast.Stmt) bool {
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit || found {
				return false
			}
			if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == results.Len() && !errorReturned(info, results, ret) {
				found = true
			}
			return true
		})
	}
	return found
}

// negates reports whether cond is !v or v == false.
func negates(info *types.Info, cond ast.Expr, v *types.Var) bool {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		id, ok := ast.Unparen(e.X).(*ast.Ident)
		return ok && e.Op == token.NOT && info.ObjectOf(id) == v
	case *ast.BinaryExpr:
		id, ok := ast.Unparen(e.X).(*ast.Ident)
		return ok && e.Op == token.EQL && info.ObjectOf(id) == v && isFalse(info, e.Y)
	}
	return false
}

// returnsNil reports whether a return hands back a nil value beside its
// error (return nil, nil): the caller can still tell from the handle.
func returnsNil(info *types.Info, results *types.Tuple, ret *ast.ReturnStmt) bool {
	for i := 0; i < results.Len()-1 && i < len(ret.Results); i++ {
		if tv, ok := info.Types[ret.Results[i]]; ok && tv.IsNil() {
			return true
		}
	}
	return false
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// incrAnswer reads which way round a wrapper of an INCR lock answers: it
// returns a comparison of the INCR's reply with 1 (or 2) at okAt. busy is
// true for "held by someone else" (n > 1, n != 1, n >= 2) and false for
// "taken" (n == 1, n <= 1, n < 2); known is false when no return says.
func incrAnswer(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr, okAt int) (busy, known bool) {
	var reply types.Object
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || reply != nil || len(as.Rhs) != 1 || len(as.Lhs) == 0 || !contains(as.Rhs[0], call) {
			return reply == nil
		}
		if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
			reply = info.ObjectOf(id)
		}
		return false
	})
	if reply == nil {
		return false, false
	}
	answers := map[bool]bool{}
	countAnswers(info, fd, reply, okAt, func(_ *ast.ReturnStmt, op, c string) {
		switch {
		case c == "1" && (op == ">" || op == "!="), c == "2" && op == ">=":
			answers[true] = true
		case c == "1" && (op == "==" || op == "<="), c == "2" && op == "<":
			answers[false] = true
		}
	})
	if len(answers) != 1 {
		return false, false
	}
	return answers[true], true
}

// incrFailsOpen returns the return of fd that answers from the reply of
// the INCR call (directly, or through a client wrapper returning the
// count) when the call's error is discarded (n, _ := ..., or go-redis
// .Val()) and the answer for a count of 0 or -1 lets the caller in: a
// "held" answer n > 1 (or n >= 2) is false there, a "taken" answer n <= 1
// (or n < 2) true. An answer n != 1 or n == 1 fails closed; nil then.
func incrFailsOpen(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr, okAt int) *ast.ReturnStmt {
	var reply types.Object
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || reply != nil || len(as.Rhs) != 1 || !contains(as.Rhs[0], call) {
			return reply == nil
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok || id.Name == "_" {
			return false
		}
		switch rhs := ast.Unparen(as.Rhs[0]).(type) {
		case *ast.CallExpr:
			sel, isSel := rhs.Fun.(*ast.SelectorExpr)
			discarded := len(as.Lhs) == 2 && isBlank(as.Lhs[1]) && (rhs == call || isSel && sel.Sel.Name == "Result" && ast.Unparen(sel.X) == call) ||
				len(as.Lhs) == 1 && isSel && sel.Sel.Name == "Val" && ast.Unparen(sel.X) == call
			if discarded {
				reply = info.ObjectOf(id)
			}
		}
		return false
	})
	if reply == nil {
		return nil
	}
	var found *ast.ReturnStmt
	countAnswers(info, fd, reply, okAt, func(ret *ast.ReturnStmt, op, c string) {
		switch {
		case found != nil:
		case c == "1" && op == ">", c == "2" && op == ">=", c == "1" && op == "<=", c == "2" && op == "<":
			found = ret
		}
	})
	return found
}

// countAnswers calls f for each return of fd (not of its function
// literals) whose result okAt compares the count reply with a constant,
// as "reply op c" (sides swapped when the constant comes first).
func countAnswers(info *types.Info, fd *ast.FuncDecl, reply types.Object, okAt int, f func(ret *ast.ReturnStmt, op, c string)) {
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || okAt >= len(ret.Results) {
			return true
		}
		be, ok := ast.Unparen(ret.Results[okAt]).(*ast.BinaryExpr)
		if !ok {
			return true
		}
		x, y, op := be.X, be.Y, be.Op.String()
		if id, ok := ast.Unparen(y).(*ast.Ident); ok && info.Uses[id] == reply {
			x, y = y, x
			op = map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}[op]
		}
		id, ok := ast.Unparen(x).(*ast.Ident)
		tv, isConst := info.Types[y]
		if ok && info.Uses[id] == reply && isConst && tv.Value != nil {
			f(ret, op, tv.Value.String())
		}
		return true
	})
}

// contains reports whether call is e or inside it.
func contains(e ast.Expr, call *ast.CallExpr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		found = found || n == call
		return !found
	})
	return found
}

// errorReturned reports whether a return hands back a non-nil error beside
// its answer: the caller is told the acquire failed.
func errorReturned(info *types.Info, results *types.Tuple, ret *ast.ReturnStmt) bool {
	for i := 0; i < results.Len() && i < len(ret.Results); i++ {
		if !types.Identical(results.At(i).Type(), types.Universe.Lookup("error").Type()) {
			continue
		}
		if tv, ok := info.Types[ret.Results[i]]; !ok || !tv.IsNil() {
			return true
		}
	}
	return false
}

func isFalse(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// namedAcquire names a call of a method that another package implements
// (an interface method with no implementation here) named as taking a
// lock and returning (bool, error): AcquireRedeemLock, TryLock. The bool
// says whether the lock was taken, whatever runs behind it.
func namedAcquire(info *types.Info, call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return ""
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Results().Len() != 2 ||
		!isBoolType(sig.Results().At(0).Type()) || !types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type()) {
		return ""
	}
	if !namedAsAcquire(fn.Name()) {
		return ""
	}
	return fn.Name()
}

func isBoolType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func isTrue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
}

// droppedHelperAcquires reports a call statement that drops the (bool)
// outcome of a helper that takes a lock (its summary in the lifecycle
// says it acquires: a Lua hash lock, a SET NX behind several layers):
// Lock() { r.LockWithDefaultLeaseTime() } returns as if locked.
func (r *runner) droppedHelperAcquires(fd *ast.FuncDecl) {
	stmts := map[*ast.CallExpr]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if es, ok := n.(*ast.ExprStmt); ok {
			if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok {
				stmts[call] = true
			}
		}
		return true
	})
	ops := r.res.Funcs[fd]
	reported := map[*ast.CallExpr]bool{}
	for _, op := range ops {
		if op.Kind != lifecycle.Acquire || op.Cmd != nil || op.Via == nil || !stmts[op.Call] || op.In.InDefer || op.In.InGo || reported[op.Call] {
			continue
		}
		if releasedByCall(ops, op) || r.runsSection(op.Via) {
			// The helper takes and releases the lock itself (runs the
			// section): its bool says whether the work ran.
			continue
		}
		if a := r.wrapperAcquire(fd, op.Call); a != nil && !a.unjudged {
			continue // reported with the wrapper's fact
		}
		if r.modeSkipsAcquire(op.Via, op.Call) {
			continue // lock(name, ttl, true): the renewing branch
		}
		if r.stateQueried(fd, op.Call) {
			continue // if !e.IsLeader() { e.TryAcquire(ctx) }: the object keeps the outcome
		}
		if r.keepsOutcome(fd, op.Via) {
			continue // an elector's Start or ticker loop: nothing here runs a section
		}
		results := op.Via.Type().(*types.Signature).Results()
		hasBool := false
		for i := 0; i < results.Len(); i++ {
			hasBool = hasBool || isBoolType(results.At(i).Type())
		}
		if !hasBool || op.Lock() == nil || !op.Lock().IsLock(r.pass) {
			continue
		}
		reported[op.Call] = true
		r.pass.Report(analysis.Diagnostic{
			Pos: op.Call.Pos(), End: op.Call.End(),
			Message: fmt.Sprintf("the result of %s, which takes lock %s (%s), is discarded: the code goes on whether or not it got the lock; "+
				"check its bool (and error) and stop when the lock is held elsewhere", types.ExprString(op.Call.Fun), op.KeyText(), op.Describe()),
		})
	}
}

// stateQueried reports whether the function tests, in a condition, a
// state query of the object whose method call takes the lock: a method
// of the same receiver expression with no parameters answering one bool
// and named as a question (IsLeader, IsLocked, HasLock, Held). Such an
// object records the outcome of its acquire (an elector's isLeader),
// and the caller learns it there, not from the dropped bool.
func (r *runner) stateQueried(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	recv := types.ExprString(sel.X)
	info := r.pass.TypesInfo
	query := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || found || len(c.Args) != 0 {
				return !found
			}
			s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
			if !ok || types.ExprString(s.X) != recv {
				return true
			}
			fn, ok := info.Uses[s.Sel].(*types.Func)
			if !ok {
				return true
			}
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() == 0 && sig.Results().Len() == 1 && isBoolType(sig.Results().At(0).Type()) && namedAsState(fn.Name()) {
				found = true
			}
			return !found
		})
		return found
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			found = query(n.Cond)
		case *ast.ForStmt:
			found = n.Cond != nil && query(n.Cond)
		case *ast.ReturnStmt:
			for _, res := range n.Results {
				found = found || query(res)
			}
		}
		return !found
	})
	return found
}

// namedAsState reports whether a method's name asks about a state: Is...,
// Has..., or Held, Locked, Leader, Owned, Owner.
func namedAsState(name string) bool {
	if len(name) > 2 && strings.HasPrefix(name, "Is") || len(name) > 3 && strings.HasPrefix(name, "Has") ||
		len(name) > 2 && strings.HasPrefix(name, "is") || len(name) > 3 && strings.HasPrefix(name, "has") {
		return true
	}
	switch strings.ToLower(name) {
	case "held", "locked", "leader", "owned", "owner", "leading":
		return true
	}
	return false
}

// modeSkipsAcquire reports whether a call of a helper of this package
// passes a constant bool that steers the helper away from its acquire:
// func (j *Job) lock(name string, ttl int, renewal bool) { if renewal {
// EXPIRE } else { SET NX } } called as j.lock("x", 10, true) renews.
func (r *runner) modeSkipsAcquire(via *types.Func, call *ast.CallExpr) bool {
	info := r.pass.TypesInfo
	constBool := false
	for _, a := range call.Args {
		if tv, ok := info.Types[a]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
			constBool = true
		}
	}
	if !constBool {
		return false // most calls: no mode to look up
	}
	var helper *ast.FuncDecl
	for hd := range r.res.Funcs {
		if info.Defs[hd.Name] == via {
			helper = hd
		}
	}
	if helper == nil {
		return false
	}
	var acquires []*ast.CallExpr
	for _, o := range r.res.Funcs[helper] {
		if o.Kind == lifecycle.Acquire {
			acquires = append(acquires, o.Call)
		}
	}
	if len(acquires) == 0 {
		return false
	}
	params := via.Type().(*types.Signature).Params()
	for i := 0; i < params.Len() && i < len(call.Args); i++ {
		tv, ok := info.Types[call.Args[i]]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
			continue
		}
		taken := constant.BoolVal(tv.Value)
		param := params.At(i)
		skipped := false
		ast.Inspect(helper.Body, func(n ast.Node) bool {
			ifs, ok := n.(*ast.IfStmt)
			if !ok || skipped || ifs.Else == nil {
				return !skipped
			}
			cond, negated := ast.Unparen(ifs.Cond), false
			if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
				cond, negated = ast.Unparen(u.X), true
			}
			id, ok := cond.(*ast.Ident)
			if !ok || info.Uses[id] != param {
				return true
			}
			var other ast.Node = ifs.Else // the branch this call does not take
			if taken == negated {
				other = ifs.Body
			}
			skipped = true
			for _, a := range acquires {
				if a.Pos() < other.Pos() || a.End() > other.End() {
					skipped = false
				}
			}
			return !skipped
		})
		if skipped {
			return true
		}
	}
	return false
}

// releasedByCall reports whether the call that makes acquire (through a
// helper) also releases the same lock.
func releasedByCall(ops []*lifecycle.Op, acquire *lifecycle.Op) bool {
	for _, o := range ops {
		if o.Call == acquire.Call && o.Kind == lifecycle.Delete && (o.Lock() == acquire.Lock() || o.Key.Exact == acquire.Key.Exact) {
			return true
		}
	}
	return false
}

// runsSection reports whether fn, a function of this package, releases
// the lock it takes after taking it (updateWithLock: acquire, defer
// release, work): its bool says whether the work ran, not whether its
// caller holds a lock.
func (r *runner) runsSection(fn *types.Func) bool {
	for fd, ops := range r.res.Funcs {
		if r.pass.TypesInfo.Defs[fd.Name] != fn {
			continue
		}
		for _, a := range ops {
			if a.Kind != lifecycle.Acquire || a.Lock() == nil {
				continue
			}
			for _, o := range ops {
				if o.Kind == lifecycle.Delete && o.Lock() == a.Lock() && o.Pos() > a.Pos() {
					return true
				}
			}
		}
	}
	return false
}

// inverted reports an acquire whose success branch only returns while the
// code after it works and releases the lock: if redis.Lock(key, ttl) {
// return }; defer redis.Unlock(key). The holder leaves at once (its lock
// stays until the TTL), and whoever did not get the lock runs the work
// and deletes the holder's lock.
func (r *runner) inverted(fd *ast.FuncDecl) {
	ops := r.res.Funcs[fd]
	for _, op := range ops {
		if op.Kind != lifecycle.Acquire || op.Lock() == nil || !op.Lock().IsLock(r.pass) {
			continue
		}
		ifs := r.successReturns(fd, op.Call)
		if ifs == nil {
			continue
		}
		for _, o := range ops {
			if o.Lock() != op.Lock() || o.Kind != lifecycle.Delete || o.Pos() < ifs.End() {
				continue
			}
			r.pass.Report(analysis.Diagnostic{
				Pos: op.Call.Pos(), End: op.Call.End(),
				Message: fmt.Sprintf("the lock is taken by %s, yet this branch returns when it succeeds, while the code after it "+
					"(run when the lock is held elsewhere) does the work and releases the lock: the condition is inverted; "+
					"return when the acquire fails (if !ok { return })", types.ExprString(op.Call.Fun)),
				Related: []analysis.RelatedInformation{{Pos: o.Call.Pos(), End: o.Call.End(), Message: "the lock is released here"}},
			})
			break
		}
	}
}

// successReturns returns the if statement testing call's bool outcome
// (if call(...) {...}, or ok := call(...); if ok {...}) whose branch for
// success holds only a return, or nil.
func (r *runner) successReturns(fd *ast.FuncDecl, call *ast.CallExpr) *ast.IfStmt {
	info := r.pass.TypesInfo
	var okVar types.Object
	var found *ast.IfStmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && ast.Unparen(n.Rhs[0]) == ast.Expr(call) && len(n.Lhs) >= 1 {
				if id, ok := ast.Unparen(n.Lhs[0]).(*ast.Ident); ok {
					if obj := info.ObjectOf(id); obj != nil && isBoolType(obj.Type()) {
						okVar = obj
					}
				}
			}
		case *ast.IfStmt:
			cond := ast.Unparen(n.Cond)
			id, isID := cond.(*ast.Ident)
			tests := cond == ast.Expr(call) || isID && okVar != nil && info.Uses[id] == okVar
			if !tests || n.Else != nil || len(n.Body.List) != 1 {
				return true
			}
			if _, ok := n.Body.List[0].(*ast.ReturnStmt); ok {
				found = n
			}
		}
		return found == nil
	})
	return found
}
