package lockresult

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/section"
)

// failSilently reports an acquire function with no results at all, which
// takes a lock for its caller to release later (Acquire(ctx, key) keeping
// the lock in a map for Release): when its acquire fails, all it can do is
// return, and every caller goes on as if it held the lock. Reported at
// the acquire when a failure branch only logs and returns; not when the
// function releases the lock itself (it runs the work: a job), nor when
// the branch tells someone (sets a field, sends, closes, calls a func
// value) or ends the program, nor when the function keeps its outcome in
// a bool field (an election tick setting e.isLeader, which callers ask).
func (r *runner) failSilently(fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || fn.Type().(*types.Signature).Results().Len() != 0 || !acquireNamed(fd.Name.Name) || releasesItself(info, fd) || r.keepsStatusVia(fd) {
		return
	}
	acquires := map[*ast.CallExpr]string{}
	for _, c := range r.res.Calls[fd] {
		if c.Cmd == nil {
			continue
		}
		if name := failOpenAcquire(info, c.Cmd); name != "" {
			if op := r.acquireOp(fd, c.Call); op != nil && lockLike(op, fd) {
				acquires[c.Call] = name
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if a := libAcquire(info, call); a != nil {
				acquires[call] = a.name
			}
		}
		return true
	})
	for call, name := range acquires {
		rets, ok := section.AcquireFailureReturns(info, r.exits.MayReturn, fd, call)
		if !ok {
			continue
		}
		for _, ret := range rets {
			if !onlyLogs(info, fd, ret) {
				continue
			}
			r.pass.Report(analysis.Diagnostic{
				Pos: call.Pos(), End: call.End(),
				Message: fmt.Sprintf("%s returns nothing, so when %s fails (the lock is held elsewhere, Redis unreachable) it can only log and return: "+
					"every caller goes on as if it held the lock and runs its critical section without it; return an error "+
					"(or a bool) that callers must check, or use safelock.Locker.TryAcquire", fd.Name.Name, name),
				Related: []analysis.RelatedInformation{{Pos: ret.Pos(), End: ret.End(), Message: "return after the acquire failed"}},
			})
			break
		}
	}
}

// acquireNamed reports whether a function's name says it takes a lock
// (Acquire, Lock, TryLock, Obtain, Grab, and forms such as Acquiref or
// lockKey), not one that gives it back.
func acquireNamed(name string) bool {
	n := strings.ToLower(name)
	if strings.Contains(n, "unlock") || strings.Contains(n, "release") {
		return false
	}
	for _, p := range []string{"acquire", "lock", "trylock", "tryacquire", "obtain", "grab"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// releasesItself reports whether fd gives a lock back (a Release, Unlock
// or DEL call other than a Go mutex's, or the cancel func a lock library's
// acquire returned: rueidislock's ctx, cancel, err := WithContext(...);
// defer cancel()): it runs its own critical section.
func releasesItself(info *types.Info, fd *ast.FuncDecl) bool {
	handles := map[types.Object]bool{} // func values a library acquire returned
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && libAcquire(info, call) != nil {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					if v := info.ObjectOf(id); v != nil {
						if _, fn := v.Type().Underlying().(*types.Signature); fn {
							handles[v] = true
						}
					}
				}
			}
		}
		return true
	})
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && handles[info.Uses[id]] {
			found = true
			return false
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || fn.Pkg() != nil && fn.Pkg().Path() == "sync" {
			return true
		}
		n2 := strings.ToLower(fn.Name())
		if strings.Contains(n2, "release") || strings.Contains(n2, "unlock") || n2 == "del" || n2 == "unlink" {
			found = true
		}
		return !found
	})
	return found
}

// keepsStatusVia reports whether fd keeps a status field (keepsStatus)
// itself or through a setter of this package it calls
// (e.setLeader(false), which swaps an atomic flag and tells subscribers).
func (r *runner) keepsStatusVia(fd *ast.FuncDecl) bool {
	info := r.pass.TypesInfo
	if keepsStatus(info, fd) {
		return true
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && fn.Pkg() == r.pass.Pkg {
				if g := r.declOf(fn); g != nil && g != fd && g.Body != nil && keepsStatus(info, g) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// keepsStatus reports whether fd sets a status field anywhere: a bool
// field (isLeader = true), an atomic flag (isLeader.Store(true) or Swap on an
// atomic.Bool, Int32 or Uint32; atomic.StoreInt32(&le.isLeader, 1)).
// The object holds the outcome, and its callers read it there.
func keepsStatus(info *types.Info, fd *ast.FuncDecl) bool {
	field := func(e ast.Expr) *types.Var {
		if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
			if v, ok := info.Uses[sel.Sel].(*types.Var); ok && v.IsField() {
				return v
			}
		}
		return nil
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := field(l); v != nil && isBoolType(v.Type()) {
					found = true
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Store" || sel.Sel.Name == "Swap" || sel.Sel.Name == "CompareAndSwap") {
				if v := field(sel.X); v != nil && isAtomicFlag(v.Type()) {
					found = true
				}
			}
			fn, _ := typeutil.Callee(info, n).(*types.Func)
			if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && (fn.Name() == "StoreInt32" || fn.Name() == "StoreUint32") && len(n.Args) == 2 {
				if addr, ok := ast.Unparen(n.Args[0]).(*ast.UnaryExpr); ok && addr.Op == token.AND && field(addr.X) != nil {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isAtomicFlag reports whether t is sync/atomic's Bool, Int32 or Uint32.
func isAtomicFlag(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync/atomic" {
		return false
	}
	switch n.Obj().Name() {
	case "Bool", "Int32", "Uint32":
		return true
	}
	return false
}

// onlyLogs reports whether the block that ends in ret (the failure
// branch) does nothing but calls and new locals before it: no field or
// variable set, no channel send or close, no func value called, no
// goroutine started. Such a branch tells nobody that the lock was not
// taken.
func onlyLogs(info *types.Info, fd *ast.FuncDecl, ret *ast.ReturnStmt) bool {
	var block *ast.BlockStmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BlockStmt); ok {
			for _, s := range b.List {
				if s == ret {
					block = b
				}
			}
		}
		return block == nil
	})
	if block == nil {
		return false
	}
	for _, s := range block.List {
		switch s := s.(type) {
		case *ast.ReturnStmt:
		case *ast.ExprStmt:
			call, ok := ast.Unparen(s.X).(*ast.CallExpr)
			if !ok {
				return false
			}
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "close" {
					return false
				}
			}
			if _, ok := typeutil.Callee(info, call).(*types.Func); !ok {
				return false // a func value: a callback told
			}
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE {
				return false
			}
		case *ast.DeclStmt:
		default:
			return false
		}
	}
	return true
}

// answersHeld returns the return statement that the failure branch of an
// acquire function reaches, past join (where it falls through into the
// code after its if), when nothing runs on the way but stores and
// trivial calls, and that answers "held": a nil error from a
// function whose only result is an error (Lock(ctx) error, after if
// errors.Is(err, redislock.ErrNotObtained) { log }), or true from one
// whose first result is a bool. Its callers take that for the lock.
// Silent for functions that release the lock themselves or keep a bool
// status, and when a bool is set on the way (a flag the answer may be
// read with).
func (r *runner) answersHeld(fd *ast.FuncDecl, f *flow, branch, join *cfg.Block) *ast.ReturnStmt {
	info := r.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if join == nil || !ok || !acquireNamed(fd.Name.Name) {
		return nil
	}
	res := fn.Type().(*types.Signature).Results()
	held := func(ret *ast.ReturnStmt) bool {
		if len(ret.Results) != res.Len() || res.Len() == 0 {
			return false
		}
		first := ret.Results[0]
		switch {
		case res.Len() == 1 && isErrorType(res.At(0).Type()):
			tv, found := info.Types[first]
			return found && tv.IsNil()
		case isBoolType(res.At(0).Type()):
			return isTrue(info, first)
		}
		return false
	}
	if res.Len() == 0 || releasesItself(info, fd) || r.keepsStatusVia(fd) {
		return nil
	}
	blk, joined := branch, false
	for range 16 {
		joined = joined || blk == join
		for _, n := range blk.Nodes {
			switch n := n.(type) {
			case *ast.ReturnStmt:
				if joined && held(n) {
					return n // a return inside the branch is failOpen's
				}
				return nil
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if isBoolType(info.TypeOf(l)) {
						return nil
					}
				}
			}
			if f.firstCall(n) != nil {
				return nil
			}
		}
		if len(blk.Succs) != 1 {
			return nil
		}
		blk = blk.Succs[0]
	}
	return nil
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
