package lockresult

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

// AcquireFact marks a function that returns the outcome of a lock acquire
// unchanged: func (l *Lock) TryLock(ctx) (bool, error) { return
// l.rdb.SetNX(...).Result() }. Callers in this and other packages are
// then checked as if they called the acquire itself.
type AcquireFact struct {
	Via    string // what it wraps, for messages: "SetNX at lock.go:12"
	Signal int    // how a held lock shows (signal)
	Lib    bool   // wraps a lock library's acquire
	// Unjudged: it wraps an NX that nothing in its package names a lock
	// (a store's SetNX(key, ...) serving every key); each caller's key
	// decides whether the call takes a lock.
	Unjudged bool
	// EmptyToken: the handle is the token the wrapper stored, and a lock
	// it did not get comes back as "" with a nil error (emptyTokenFact).
	EmptyToken bool
	// Result positions of the bool, reply, handle and error, or -1.
	OkAt, ReplyAt, HandleAt, ErrAt int
}

func (*AcquireFact) AFact() {}

func (f *AcquireFact) String() string { return "returns the outcome of " + f.Via }

// returnedBy maps the outcome of a returned acquire onto the results of
// the function that returns it, or nil when the return is not exactly
// "return <acquire results>" in a declared function.
func returnedBy(info *types.Info, fd *ast.FuncDecl, path []ast.Node, ret *ast.ReturnStmt, result *ast.CallExpr, pos [4]int) *AcquireFact {
	for _, n := range path {
		if _, ok := n.(*ast.FuncLit); ok {
			return nil // returned from a literal, not from fd
		}
		if n == ast.Node(fd) {
			break
		}
	}
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || len(ret.Results) != 1 || ast.Unparen(ret.Results[0]) != ast.Expr(result) {
		return nil
	}
	if fn.Type().(*types.Signature).Results().Len() != resultCount(info, result) {
		return nil
	}
	return &AcquireFact{OkAt: pos[0], ReplyAt: pos[1], HandleAt: pos[2], ErrAt: pos[3]}
}

// wrapperAcquire describes a call in fd to a function with an
// AcquireFact. A call of an unjudged wrapper counts when the caller's key
// is a lock's (see lockish); otherwise it is described as unjudged, so
// that only a wrapper returning its outcome in turn gets a fact.
func (r *runner) wrapperAcquire(fd *ast.FuncDecl, call *ast.CallExpr) *acquire {
	fn, _ := typeutil.Callee(r.pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return nil
	}
	f := r.facts[fn]
	if f == nil && fn.Pkg() != nil && fn.Pkg() != r.pass.Pkg {
		f = new(AcquireFact)
		if !r.pass.ImportObjectFact(fn.Origin(), f) {
			f = nil
		}
	}
	if f == nil || fn.Pkg() == r.pass.Pkg && r.modeSkipsAcquire(fn, call) {
		return nil
	}
	return &acquire{
		call: call, name: lifecycle.FuncName(fn) + " (" + f.Via + ")", signal: signal(f.Signal), lib: f.Lib,
		okAt: f.OkAt, replyAt: f.ReplyAt, handleAt: f.HandleAt, errAt: f.ErrAt,
		unjudged: f.Unjudged && !r.lockishCall(fd, call), emptyToken: f.EmptyToken,
	}
}

// lockishCall reports whether the acquire that call makes in fd (as the
// lifecycle summary of its callee says) takes a lock.
func (r *runner) lockishCall(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	if fd == nil {
		return false
	}
	op := r.acquireOp(fd, call)
	return op != nil && !op.Judged && lockish(op, fd)
}

func (r *runner) where(a *acquire) string {
	p := r.pass.Fset.Position(a.call.Pos())
	name := a.name
	if a.cmd != nil && a.cmd.Method != nil {
		name = a.cmd.Method.Name()
		if name == "Do" || name == "Build" {
			name = a.name
		}
	}
	return fmt.Sprintf("%s at %s:%d", name, filepath.Base(p.Filename), p.Line)
}
