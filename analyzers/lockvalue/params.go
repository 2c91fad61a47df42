package lockvalue

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

// valueParamFact marks an exported function of a lock package that
// stores one of its parameters as the value of the locks it makes: a
// constructor NewLocker(key, value string, ...) whose Lock stores
// l.value with SET NX. The value is the caller's choice, so it is judged
// at the calls from other packages.
type valueParamFact struct {
	Params []int  // indices of the parameters stored as the lock value
	Lock   string // the lock's key, for messages
	Field  string // the field the value is kept in
}

func (*valueParamFact) AFact() {}

func (f *valueParamFact) String() string {
	return fmt.Sprintf("lock value from parameters %v (field %s of lock %s)", f.Params, f.Field, f.Lock)
}

// valueParams records in out the exported functions that set, from a
// parameter, the field that acq (an acquire of a lock of this package:
// released, renewed or checked) stores as its value v. The field must be
// set only outside the functions that acquire: one set afresh by the
// acquire (l.value = NewToken()) is not the caller's.
func (t *tracer) valueParams(acq *lifecycle.Op, v ast.Expr, out map[*types.Func]*valueParamFact) {
	sel, ok := ast.Unparen(v).(*ast.SelectorExpr)
	if !ok {
		return
	}
	f := t.stored(sel)
	if f == nil || f.Pkg() != t.pass.Pkg || t.tainted[f] || t.global(f) {
		return
	}
	type sink struct {
		fn  *types.Func
		idx int
	}
	var sinks []sink
	for _, a := range t.vars[f] {
		if a.fd == nil {
			return
		}
		started := goCalls(a.fd)
		for _, op := range t.res.Funcs[a.fd] {
			if op.Kind == lifecycle.Acquire && !started[op.Call] {
				return // set where the lock is taken: perhaps per acquisition
			}
		}
		fn, _ := t.info.Defs[a.fd.Name].(*types.Func)
		p := t.param(a.fd, a.rhs)
		if a.idx >= 0 || p == nil || fn == nil || !fn.Exported() || lifecycle.IsTestFile(t.pass.Fset, a.fd.Pos()) {
			continue
		}
		sig := fn.Type().(*types.Signature)
		for i := range sig.Params().Len() {
			if sig.Params().At(i) == p && (!sig.Variadic() || i != sig.Params().Len()-1) {
				sinks = append(sinks, sink{fn, i})
			}
		}
	}
	for _, s := range sinks {
		fact := out[s.fn]
		if fact == nil {
			fact = &valueParamFact{Lock: acq.KeyText(), Field: f.Name()}
			out[s.fn] = fact
		}
		if !slices.Contains(fact.Params, s.idx) {
			fact.Params = append(fact.Params, s.idx)
		}
	}
}

// goCalls returns the calls fd starts as goroutines (go e.campaign()): a
// constructor that starts the loop that acquires does not take the lock
// itself, so what it stores is kept for every acquisition of the loop.
func goCalls(fd *ast.FuncDecl) map[*ast.CallExpr]bool {
	out := map[*ast.CallExpr]bool{}
	if fd.Body == nil {
		return out
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			out[n.Call] = true
		}
		return true
	})
	return out
}

// exportValueParams exports the facts valueParams found.
func exportValueParams(pass *analysis.Pass, facts map[*types.Func]*valueParamFact) {
	for fn, f := range facts {
		slices.Sort(f.Params)
		pass.ExportObjectFact(fn, f)
	}
}

// reportValueArgs reports weak values passed from this package to a
// function of another that stores them as a lock's value:
// lock.NewLocker(key, "lockValue", ttl, rdb). Each value is reported once,
// where it is made. t may be nil: the tracer is then made at the first
// such call.
func reportValueArgs(pass *analysis.Pass, res *lifecycle.Result, t *tracer) {
	seen := map[ast.Node]bool{}
	check := func(fd *ast.FuncDecl, call *ast.CallExpr) {
		fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
			return
		}
		var f valueParamFact
		if !pass.ImportObjectFact(fn.Origin(), &f) || call.Ellipsis.IsValid() {
			return
		}
		for _, i := range f.Params {
			if i >= len(call.Args) {
				continue
			}
			arg := call.Args[i]
			if t == nil {
				t = newTracer(pass, res)
			}
			w := t.eval(arg, ctx{fd: fd})
			if !w.k.weak() {
				continue
			}
			at := ast.Node(arg)
			if w.at != nil {
				at = w.at
			}
			if seen[at] {
				continue
			}
			seen[at] = true
			pass.Report(analysis.Diagnostic{
				Pos: at.Pos(), End: at.End(),
				Message: fmt.Sprintf("%s is passed to %s.%s, which keeps it in %s as the value of lock %s: every lock made this way stores it, so it cannot tell one holder from another: %s; "+
					"pass a random token from safelock.NewToken() for each acquisition, or let the lock make its own",
					describe(w), fn.Pkg().Name(), funcName(fn), f.Field, f.Lock, consequence(w.k)),
			})
		}
	}
	for _, file := range pass.Files {
		if lifecycle.IsTestFile(pass.Fset, file.Pos()) {
			continue
		}
		for _, d := range file.Decls {
			fd, _ := d.(*ast.FuncDecl)
			ast.Inspect(d, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					check(fd, call)
				}
				return true
			})
		}
	}
}

// funcName names fn as its callers write it: Type.Method or Func.
func funcName(fn *types.Func) string {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return fn.Name()
	}
	rt := recv.Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	if n, ok := rt.(*types.Named); ok {
		return n.Obj().Name() + "." + fn.Name()
	}
	return fn.Name()
}
