package lifecycle

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// rolledBack reports whether the NX key l is a claim that is kept once
// the work it marks succeeded and deleted only when that work fails:
// every delete of the key sits on a branch that leaves (an if or case
// body ending in return, continue or panic, or, in the function that
// takes the key, the body of a last if that tests for failure) in the
// function that takes it, or in a function that does not take it (the
// worker it starts), so the path that goes on keeps the key until its
// TTL. A delete before the taking function takes the key, outside any
// loop around both, clears it and counts neither way. Examples: a
// "payment in progress" flag cleared when the channel call fails, a cron
// period claim dropped so the next tick retries, a request-id record
// rolled back. A lock is given back when its work is done, also on success. A
// function that deletes the key on its way out of the work as well as on
// failure gives it back on both paths; a release (Unlock, ClearSlot, a
// compare-and-delete) elsewhere makes it a lock's. A handler that clears
// the flag once the work it marks has ended (a payment callback, on its
// main path) is neither. A function that hands the value it stored to its
// caller (handsOverToken) keeps a lock for a later release, not a claim.
func (l *Lock) rolledBack(pass *analysis.Pass) bool {
	// A call of a helper that both takes and deletes the key (the
	// scheduler's loop calling its tick) leaves the decision to the
	// helper: it is judged there.
	taking := map[*ast.CallExpr]bool{}
	for _, a := range l.Acquires {
		if a.Via != nil {
			taking[a.Call] = true
		}
	}
	inside := map[*ast.CallExpr]bool{}
	for _, op := range l.Ops {
		if op.Kind == Delete && op.Via != nil && taking[op.Call] {
			inside[op.Call] = true
		}
	}
	owners := map[*ast.FuncDecl]token.Pos{} // each taking function and its first acquire
	for _, a := range l.Acquires {
		if inside[a.Call] || a.Via != nil && a.In.InGo {
			continue // go s.run(): the goroutine takes the key, not this function
		}
		if a.In.Decl == nil || a.In.Lit != nil || a.In.InGo || a.In.InDefer || handsOverToken(pass, a) {
			return false
		}
		if at, ok := owners[a.In.Decl]; !ok || a.Pos() < at {
			owners[a.In.Decl] = a.Pos()
		}
	}
	// A delete inside a helper is judged where the helper is called
	// (unless that call is one that takes the key too).
	summarised := map[*Op]bool{}
	for _, op := range l.Ops {
		if op.inner != nil && !inside[op.Call] {
			summarised[op.inner] = true
		}
	}
	type deletes struct{ onFailure, onMain int }
	byFunc := map[*ast.FuncDecl]*deletes{}
	for _, op := range l.Ops {
		if renewsOrRuns(op) {
			return false
		}
		if op.Kind != Delete || summarised[op] || inside[op.Call] {
			continue
		}
		fd := op.In.Decl
		if op.Checked || fd == nil {
			return false
		}
		at, owner := owners[fd]
		if owner && takesForCaller(fd) {
			return false
		}
		if owner && op.Pos() < at {
			if inLoopWith(fd, op.Pos(), at) {
				return false // the delete may give back the last iteration's hold
			}
			// It clears the key (or other instances of it: the flags of
			// thresholds passed) before this function takes it: it gives
			// back nothing taken here.
			continue
		}
		// A helper only ever called where the work failed rolls back,
		// whatever its name (releaseClaim).
		rollback := !owner && op.Via == nil && calledOnlyOnFailure(pass, fd)
		if !owner && !rollback && (releaseNamed(fd) || pairedRelease(fd) || named(fd, lockWords) || op.Via != nil && releaseNamedFunc(op.Via.Name())) {
			return false
		}
		d := byFunc[fd]
		if d == nil {
			d = new(deletes)
			byFunc[fd] = d
		}
		// In the taking function, a last if that tests for failure is a
		// failure branch too: the path where the work succeeded leaves
		// the function keeping the key.
		if rollback || onFailure(pass, op, 0) || owner && op.In.Lit == nil && !op.In.InGo && lastFailureBranch(pass, fd, op.Call) {
			d.onFailure++
		} else {
			d.onMain++
		}
	}
	rollbacks := 0
	for fd, d := range byFunc {
		if _, owner := owners[fd]; d.onMain > 0 && (owner || d.onFailure > 0) {
			return false // given back when the work is done
		}
		rollbacks += d.onFailure
	}
	return rollbacks > 0
}

// renewsOrRuns reports whether op is evidence of a lock held across work
// that a claim never shows: a renewal (a watchdog's EXPIRE, a function
// named to renew or heartbeat), or a script locklint cannot read, which
// may be a compare-and-delete release.
func renewsOrRuns(op *Op) bool {
	switch op.Kind {
	case Unknown:
		return true
	case Expire:
		return op.In.InGo || op.In.Lit != nil || op.In.Decl != nil && named(op.In.Decl, leaseRenewWords) ||
			op.Via != nil && containsAny(op.Via.Name(), leaseRenewWords)
	}
	return false
}

// onFailure reports whether the delete op runs only when the work fails:
// it is on a branch that leaves, or it is a call of a helper of this
// package (also one started with go), not named as a release, that
// deletes only on its own failure branches.
func onFailure(pass *analysis.Pass, op *Op, depth int) bool {
	if op.In.InDefer || depth > 8 {
		return false
	}
	if op.In.Lit != nil {
		return !op.In.InGo && op.inner == nil && closureOnFailure(pass, op.In.Decl, op.In.Lit)
	}
	if !op.In.InGo && leaves(pass, op.Call) {
		return true
	}
	// A helper named as a release or renewal (a watchdog's leaseRenewal
	// that deletes when its context ends) gives the lock back.
	return op.inner != nil && !releaseNamedFunc(op.Via.Name()) && onFailure(pass, op.inner, depth+1)
}

// closureOnFailure reports whether lit is a function literal assigned to a
// local variable of fd (rollback := func() { ... }) that is only ever
// called, at least once, on branches that leave.
func closureOnFailure(pass *analysis.Pass, fd *ast.FuncDecl, lit *ast.FuncLit) bool {
	if fd == nil || fd.Body == nil {
		return false
	}
	var v types.Object
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				if r == lit {
					if id, ok := as.Lhs[i].(*ast.Ident); ok {
						v = pass.TypesInfo.ObjectOf(id)
					}
				}
			}
		}
		return v == nil
	})
	if v == nil {
		return false
	}
	calls, uses, main := 0, 0, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
				calls++
				main = main || !leaves(pass, n)
			}
		case *ast.Ident:
			if pass.TypesInfo.Uses[n] == v {
				uses++
			}
		}
		return true
	})
	return !main && calls > 0 && calls == uses
}

// calledOnlyOnFailure reports whether fd is an unexported function of
// this package that is only ever called, at least once, on branches that
// leave (deleteRequestSlot called where creating the order failed).
func calledOnlyOnFailure(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || fn.Exported() {
		return false
	}
	uses := 0
	for _, obj := range pass.TypesInfo.Uses {
		if obj == fn {
			uses++
		}
	}
	calls := 0
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && typeutil.Callee(pass.TypesInfo, call) == fn {
				calls++
				if !leaves(pass, call) {
					uses = -1 // a call on the main path
				}
			}
			return uses >= 0
		})
	}
	return calls > 0 && calls == uses
}

// releaseNamedFunc reports whether a helper's name says it releases a
// lock (Unlock, ReleaseSlot, ClearLock, FinishJob).
func releaseNamedFunc(name string) bool {
	return containsAny(name, releaseWords) || containsAny(name, lockWords) || pairedReleaseName(name)
}

// takesForCaller reports whether fd is named as taking a lock for its
// caller (tryLockOrder, Acquire): a delete on its failure branch undoes
// a half-taken lock, and the caller holds the lock it returns.
func takesForCaller(fd *ast.FuncDecl) bool {
	return named(fd, acquireWords) || named(fd, lockWords) || lockReceiver(fd)
}

// leaves reports whether call runs on a branch that ends by leaving the
// function or the loop iteration: the if, else or case body around it
// (or one further out, inside the same loop body) ends in return,
// continue or panic. A deferred call does not: it runs when the function
// returns, after the work of its branch (if locked { defer release(key);
// return rebuild() } gives the lock back once the rebuild is done).
func leaves(pass *analysis.Pass, call *ast.CallExpr) bool {
	path := callPath(pass, call)
	for i, n := range path {
		var body []ast.Stmt
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.DeferStmt:
			return false
		case *ast.BlockStmt:
			if i+1 < len(path) {
				if _, ok := path[i+1].(*ast.IfStmt); ok {
					body = n.List
				}
			}
		case *ast.CaseClause:
			body = n.Body
		case *ast.CommClause:
			body = n.Body
		}
		if len(body) > 0 && terminates(body[len(body)-1]) {
			return true
		}
	}
	return false
}

// lastFailureBranch reports whether call sits in the body of an if
// statement without else that ends fd, under a condition that tests for
// failure (!sent, err != nil, ok == false): the key is deleted when the
// work failed, and the path where it succeeded leaves fd keeping it.
func lastFailureBranch(pass *analysis.Pass, fd *ast.FuncDecl, call *ast.CallExpr) bool {
	if fd == nil || fd.Body == nil || len(fd.Body.List) == 0 {
		return false
	}
	last, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.IfStmt)
	if !ok || last.Else != nil || call.Pos() < last.Body.Pos() || call.End() > last.Body.End() {
		return false
	}
	for _, n := range callPath(pass, call) {
		if n == last {
			break
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return false
		}
	}
	return failureTest(pass.TypesInfo, last.Cond)
}

// failureTest reports whether cond holds when something failed: !ok (a
// local variable) or !send(...), err != nil, ok == false, or a
// disjunction of such tests.
func failureTest(info *types.Info, cond ast.Expr) bool {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		// !sent or !send(...): the outcome of work; not a state field
		// (!l.closed), which guards a release as often.
		switch x := ast.Unparen(e.X).(type) {
		case *ast.CallExpr:
			return e.Op == token.NOT
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			return e.Op == token.NOT && ok && !v.IsField() && v.Parent() != v.Pkg().Scope()
		}
		return false
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LOR:
			return failureTest(info, e.X) && failureTest(info, e.Y)
		case token.NEQ:
			return isNil(info, e.Y) && isError(info, e.X)
		case token.EQL:
			v := info.Types[e.Y].Value
			return v != nil && v.String() == "false"
		}
	}
	return false
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

func isError(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	return t != nil && types.Implements(t, types.Universe.Lookup("error").Type().Underlying().(*types.Interface))
}

// inLoopWith reports whether a for or range loop of fd holds both
// positions.
func inLoopWith(fd *ast.FuncDecl, a, b token.Pos) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() <= min(a, b) && max(a, b) < n.End() {
				found = true
			}
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// terminates reports whether s leaves the function or the loop iteration.
func terminates(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.CONTINUE
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// handsOverToken reports whether the function that takes the key with a
// hands the key and the value it stored to its caller together, in a
// struct it builds (Ticket{LockKey: key, LockValue: token}) or in one
// return: the pair is kept to release the lock later, elsewhere, which a
// claim that is only rolled back never needs. A value returned alone is
// the record's data (the order number a request id maps to).
func handsOverToken(pass *analysis.Pass, a *Op) bool {
	if a.In.Decl == nil || a.In.Decl.Body == nil {
		return false
	}
	local := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := pass.TypesInfo.Uses[id].(*types.Var)
		if v == nil || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		return v
	}
	key, value := local(a.KeyExpr), local(a.Value)
	if key == nil || value == nil {
		return false
	}
	both := func(es []ast.Expr) bool {
		k, v := false, false
		for _, e := range es {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			switch local(e) {
			case key:
				k = true
			case value:
				v = true
			}
		}
		return k && v
	}
	found := false
	ast.Inspect(a.In.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = found || both(n.Results)
		case *ast.CompositeLit:
			if t := pass.TypesInfo.TypeOf(n); t != nil {
				if _, isStruct := t.Underlying().(*types.Struct); isStruct && both(n.Elts) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
