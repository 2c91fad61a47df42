package locklease

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/section"
)

// swallowedRenewals reports renewal wrappers that answer success when the
// renewal failed: a function named as a renewal (Refresh, Extend, Renew,
// KeepAlive, Heartbeat) returning an error, whose renewal's error branch
// can reach "return nil" (every error but ErrLockNotHeld
// swallowed, or a log and fall through). Its caller — a session, a
// leader loop — takes the failed renewal for a kept lease and goes on as
// the owner after the lock may have expired.
func swallowedRenewals(pass *analysis.Pass, res *section.Result, skip map[*ast.CallExpr]bool) {
	info := pass.TypesInfo
	checked := map[*ast.CallExpr]string{} // owner-checked EXPIREs of locks
	// ownerChecked are the renewals that check the owner themselves (a
	// compare-and-expire script): their reply is the only sign of a lost
	// lock. A bare EXPIRE is lockrenew's report, once.
	ownerChecked := map[*ast.CallExpr]bool{}
	// helperRenewals are calls of a helper of this package that renews a
	// lock with an owner check (rl.extends()): their answer is the loss.
	helperRenewals := map[*ast.CallExpr]string{}
	if lc := res.Lifecycle; lc != nil {
		for _, op := range lc.Ops {
			if op.Kind != lifecycle.Expire || releases(op) {
				continue
			}
			isLock := op.Lock() != nil && op.Lock().IsLock(pass)
			switch {
			case op.Cmd != nil && (op.Checked || isLock):
				checked[op.Call] = op.Describe() + " of lock " + op.KeyText()
				ownerChecked[op.Call] = op.Checked
			case op.Cmd == nil && op.Via != nil && op.Checked && isLock:
				helperRenewals[op.Call] = op.Describe() + " of lock " + op.KeyText()
			}
		}
	}
	silentRenewals(pass, checked, ownerChecked, helperRenewals, skip)
	for _, f := range pass.Files {
		if lifecycle.IsTestFile(pass.Fset, f.Pos()) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !returnsError(info, fd) || !renewalNamed(fd) {
				continue
			}
			var parent map[ast.Node]ast.Node
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if skip[call] {
					if inLoop(enclosing(pass, call)) {
						// The keep-alive loop itself: the watchdog rule's.
						// A renewal helper it calls (RefreshLock, once per
						// tick) can still swallow the loss on its own.
						return true
					}
				}
				what := checked[call]
				if c := locklib.Classify(info, call); c != nil && c.Role == locklib.Renew {
					what = c.Name()
				} else if name := lockRenewCall(info, call); name != "" {
					what = name
				}
				if what == "" {
					return true
				}
				if ownerChecked[call] && parent == nil {
					parent = section.Parents(fd)
				}
				if ownerChecked[call] && replyDropped(parent, call) {
					answer := ""
					switch {
					case !returnsBool(info, fd):
						answer = "returns only the error"
					case answersTrueAfter(info, fd, call):
						answer = "answers true"
					}
					if answer != "" {
						pass.Report(analysis.Diagnostic{
							Pos: call.Pos(), End: call.End(),
							Message: fmt.Sprintf("the reply of %s, which says whether the key was still held (0 or false once it is gone), is discarded, "+
								"and %s %s: when the lock expired or passed to another holder, the renewal still reports success "+
								"and its caller goes on as the owner; check the reply and return a lock-lost error", what, fd.Name.Name, answer),
						})
						return true
					}
				}
				rets, ok := section.FailureReturns(info, res.Exits.MayReturn, fd, call)
				if !ok {
					return true
				}
				for _, r := range rets {
					if len(r.Results) == 0 || !isNil(info, r.Results[len(r.Results)-1]) {
						continue
					}
					d := analysis.Diagnostic{
						Pos: call.Pos(), End: call.End(),
						Message: fmt.Sprintf("when %s fails, %s still returns a nil error: its caller takes the failed renewal for a kept lease "+
							"and goes on as the owner after the lock may have expired; return the error (or a lock-lost error) so the holder stops",
							what, fd.Name.Name),
						Related: []analysis.RelatedInformation{{Pos: r.Pos(), End: r.End(), Message: "nil returned after the renewal failed"}},
					}
					if wrappedBefore(info, fd, call, r) {
						// err = wrap(err); ...; return nil: the error is in
						// hand, and the return is the line to change.
						d.Pos, d.End = r.Pos(), r.End()
						d.Message = fmt.Sprintf("%s keeps the error of a failed %s but returns nil: its caller takes the failed renewal for a kept lease "+
							"and goes on as the owner after the lock may have expired; return the error (or a lock-lost error) so the holder stops",
							fd.Name.Name, what)
						d.Related = []analysis.RelatedInformation{{Pos: call.Pos(), End: call.End(), Message: "the renewal"}}
					}
					pass.Report(d)
					break
				}
				return true
			})
		}
	}
}

// wrappedBefore reports whether the error variable call's error goes to
// is assigned again from itself (err = ErrRefresh{err}) between call and
// the return ret: the error is kept, and ret drops it.
func wrappedBefore(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr, ret *ast.ReturnStmt) bool {
	var errVar types.Object
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || errVar != nil || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != call && !within(call, as.Rhs[0]) {
			return errVar == nil
		}
		if id, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident); ok {
			errVar = info.ObjectOf(id)
		}
		return false
	})
	if errVar == nil {
		return false
	}
	wrapped := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || wrapped || as.Pos() <= call.End() || as.Pos() >= ret.Pos() || len(as.Lhs) != len(as.Rhs) {
			return !wrapped
		}
		for i, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && info.ObjectOf(id) == errVar && section.Mentions(info, as.Rhs[i], map[types.Object]bool{errVar: true}) {
				wrapped = true
			}
		}
		return !wrapped
	})
	return wrapped
}

// within reports whether n lies inside outer.
func within(n, outer ast.Node) bool { return outer.Pos() <= n.Pos() && n.End() <= outer.End() }

// silentRenewals reports a renewal function with no results at all
// (Extend() { _, _ = rl.extends() }, an interface's fire-and-forget
// method) that throws away the whole outcome of an owner-checked
// renewal: whatever the renewal finds, its caller cannot learn that the
// lock is gone, unless the function tells someone itself.
func silentRenewals(pass *analysis.Pass, checked map[*ast.CallExpr]string, ownerChecked map[*ast.CallExpr]bool, helpers map[*ast.CallExpr]string, skip map[*ast.CallExpr]bool) {
	for _, f := range pass.Files {
		if lifecycle.IsTestFile(pass.Fset, f.Pos()) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !renewalNamed(fd) || fd.Type.Results != nil && len(fd.Type.Results.List) > 0 {
				continue
			}
			for _, stmt := range fd.Body.List {
				call := droppedWhole(stmt)
				if call == nil || skip[call] {
					continue
				}
				what := helpers[call]
				if ownerChecked[call] {
					what = checked[call]
				}
				if what == "" {
					continue
				}
				pass.Report(analysis.Diagnostic{
					Pos: call.Pos(), End: call.End(),
					Message: fmt.Sprintf("%s throws away the whole outcome of %s and returns nothing: when the lock expired or passed to another holder, "+
						"no caller can ever learn it and the holder goes on as the owner; return the outcome (a lock-lost error) or stop the work on failure",
						fd.Name.Name, what),
				})
			}
		}
	}
}

// droppedWhole returns the call of a statement that keeps nothing of its
// result: a call statement, or _ = call / _, _ = call.
func droppedWhole(stmt ast.Stmt) *ast.CallExpr {
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		call, _ := ast.Unparen(s.X).(*ast.CallExpr)
		return call
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return nil
		}
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				return nil
			}
		}
		call, _ := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
		return call
	}
	return nil
}

// returnsBool reports whether fd has a bool result (it may answer the
// renewal's outcome there).
func returnsBool(info *types.Info, fd *ast.FuncDecl) bool {
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	for i := 0; i < res.Len(); i++ {
		if b, ok := res.At(i).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			return true
		}
	}
	return false
}

// answersTrueAfter reports whether fd, which returns a bool, returns the
// constant true after call (return true, nil once the EXPIRE's error was
// nil): its answer does not come from the renewal's reply.
func answersTrueAfter(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || ret.Pos() < call.End() {
			return !found
		}
		for _, r := range ret.Results {
			if tv, ok := info.Types[r]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value) {
				found = true
			}
		}
		return !found
	})
	return found
}

// replyDropped reports whether only the error of call's reply is kept:
// go-redis's .Err(), _, err := ....Result() (or Int(), Bool()), and
// redigo's _, err := conn.Do(...) or script.Do(...).
func replyDropped(parent map[ast.Node]ast.Node, call *ast.CallExpr) bool {
	var cur ast.Node = call
	if sel, ok := parent[call].(*ast.SelectorExpr); ok {
		reader, ok := parent[sel].(*ast.CallExpr)
		if !ok || reader.Fun != sel {
			return false
		}
		if sel.Sel.Name == "Err" {
			return true
		}
		cur = reader
	}
	as, ok := parent[cur].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	return ok && id.Name == "_"
}

func returnsError(info *types.Info, fd *ast.FuncDecl) bool {
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	if res.Len() == 0 {
		return false
	}
	t := res.At(res.Len() - 1).Type()
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// releases reports whether an EXPIRE op is part of a release: a
// reentrant unlock script that decrements, re-arms the TTL and deletes
// at zero, sent from a function named as a release.
func releases(op *lifecycle.Op) bool {
	if op.Cmd != nil && op.Cmd.Script != nil {
		for _, e := range op.Cmd.Script.Effects {
			if e.Command == "DEL" || e.Command == "UNLINK" {
				return true
			}
		}
	}
	if fd := op.In.Decl; fd != nil {
		name := strings.ToLower(fd.Name.Name)
		return strings.Contains(name, "unlock") || strings.Contains(name, "release")
	}
	return false
}

// renewalNamed reports whether fd is named as a renewal: its caller reads
// its error as the renewal's outcome (a benchmark or a loop that renews
// among other work answers for other things).
func renewalNamed(fd *ast.FuncDecl) bool {
	name := strings.ToLower(fd.Name.Name)
	for _, w := range []string{"renew", "refresh", "extend", "keepalive", "heartbeat", "touch"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}
