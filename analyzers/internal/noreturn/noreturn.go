// Package noreturn finds the calls that do not come back to their caller,
// so that the control-flow graphs the rules walk end where the program
// does: a panic, os.Exit, log.Fatal and a logger's Fatal ([Intrinsic]),
// and a project's own helpers built on them.
//
// A function never returns ([Fact] with OnError -1) when no return is
// reachable in its body once the calls that do not return end their
// blocks: func fail(msg string) { log.Fatal(msg) }. It does not return
// when its error parameter is not nil (OnError i) when no return is
// reachable on the paths that take that parameter's not-nil side of
// every nil test, the shape of error handlers that panic or exit:
//
//	func HandleError(err error) {
//		if err == nil {
//			return
//		}
//		panic(wrap(err))
//	}
//
// A call to such a handler does not return where its argument is known
// not to be nil: an error variable tested by an enclosing if
// (if err != nil { HandleError(err) }), or errors.New and fmt.Errorf.
// Facts carry both kinds across packages; a package's functions are
// judged callees first, with the facts of the helpers they call. The
// standard library is not read: what the rules need of it is listed in
// Intrinsic.
package noreturn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/callorder"
	"github.com/locklint/locklint/analyzers/internal/gostd"
)

// Analyzer computes the [Fact]s of a package's functions and the
// [Result] that tells which of its calls do not return.
var Analyzer = &analysis.Analyzer{
	Name:             "locknoreturn",
	Doc:              "finds functions that never return, or never return when their error argument is not nil, for locklint rules",
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/internal/noreturn/noreturn.go",
	Run:              run,
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*Result](),
	FactTypes:        []analysis.Fact{new(Fact)},
}

// Fact says a function does not return: never (OnError -1), or when its
// parameter OnError (from 0, the receiver not counted), an error, is
// not nil.
type Fact struct{ OnError int }

func (*Fact) AFact() {}

func (f *Fact) String() string {
	if f.OnError < 0 {
		return "noreturn"
	}
	return fmt.Sprintf("noreturn(err %d)", f.OnError)
}

// Result tells, for the calls of one package, whether they return.
type Result struct {
	info  *types.Info
	exits map[*ast.CallExpr]bool
}

// Exits reports whether call is known, from the facts of its callee,
// not to return. It does not repeat [Intrinsic].
func (r *Result) Exits(call *ast.CallExpr) bool { return r != nil && r.exits[call] }

// MayReturn reports whether call may return to its caller: neither
// [Intrinsic] nor known by facts not to. It is the callback cfg.New
// takes.
func (r *Result) MayReturn(call *ast.CallExpr) bool {
	return !r.Exits(call) && (r == nil || !Intrinsic(r.info, call))
}

// Intrinsic reports whether call certainly does not return whatever its
// callee's body says: panic, os.Exit, runtime.Goexit, log.Fatal*/Panic*,
// testing's Fatal/Skip, and a logger's Fatal or Panic that returns
// nothing (zap, logrus, klog and projects' own loggers name so the calls
// that exit or panic; a Fatal with results builds an event instead).
func Intrinsic(info *types.Info, call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := info.Uses[id].(*types.Builtin); ok && id.Name == "panic" {
			return true
		}
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "os.Exit", "runtime.Goexit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln",
		"testing.Fatal", "testing.Fatalf", "testing.FailNow", "testing.Skip", "testing.Skipf", "testing.SkipNow":
		return true
	}
	switch fn.Name() {
	case "Fatal", "Fatalf", "Fatalln", "Fatalw", "Panic", "Panicf", "Panicln", "Panicw":
		return fn.Type().(*types.Signature).Results().Len() == 0
	}
	return false
}

// facts holds what is known of callees: this package's functions as
// judged so far, and imported ones by their facts.
type facts struct {
	pass     *analysis.Pass
	local    map[*types.Func]int
	imported map[*types.Func]*int
}

// of returns the fact of fn, if any.
func (fs *facts) of(fn *types.Func) (int, bool) {
	fn = fn.Origin()
	if fn.Pkg() == fs.pass.Pkg {
		v, ok := fs.local[fn]
		return v, ok
	}
	if p, ok := fs.imported[fn]; ok {
		return derefOK(p)
	}
	var f Fact
	var p *int
	if fn.Pkg() != nil && fs.pass.ImportObjectFact(fn, &f) {
		p = &f.OnError
	}
	fs.imported[fn] = p
	return derefOK(p)
}

func derefOK(p *int) (int, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}

// exits reports whether call does not return by its callee's fact,
// given the variables known not to be nil where it is.
func (fs *facts) exits(call *ast.CallExpr, nonNil []*types.Var) bool {
	fn, _ := typeutil.Callee(fs.pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return false
	}
	i, ok := fs.of(fn)
	if !ok {
		return false
	}
	if i < 0 {
		return true
	}
	sig := fn.Type().(*types.Signature)
	args := call.Args
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && len(args) > 0 {
		if s := fs.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			args = args[1:] // (*Handler).Fail(h, err): the receiver comes first
		}
	}
	if i >= len(args) || sig.Variadic() && i >= sig.Params().Len()-1 {
		return false
	}
	return notNil(fs.pass.TypesInfo, args[i], nonNil)
}

// notNil reports whether e is certainly not nil: a variable tested so,
// or a new error.
func notNil(info *types.Info, e ast.Expr, nonNil []*types.Var) bool {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		v, _ := info.Uses[id].(*types.Var)
		for _, w := range nonNil {
			if v != nil && v == w {
				return true
			}
		}
		return false
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil && fn.Pkg() != nil {
			switch fn.Pkg().Path() + "." + fn.Name() {
			case "errors.New", "fmt.Errorf":
				return true
			}
		}
	}
	return false
}

func run(pass *analysis.Pass) (any, error) {
	info := pass.TypesInfo
	res := &Result{info: info, exits: map[*ast.CallExpr]bool{}}
	if gostd.Contains(pass) {
		return res, nil // what the rules need of it is Intrinsic
	}
	fs := &facts{pass: pass, local: map[*types.Func]int{}, imported: map[*types.Func]*int{}}
	guards := nonNilAt(pass)
	var decls []*ast.FuncDecl
	declOf := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls = append(decls, fd)
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					declOf[fn] = fd
				}
			}
		}
	}
	mayReturn := func(call *ast.CallExpr) bool {
		return !Intrinsic(info, call) && !fs.exits(call, guards[call])
	}
	// Callees first, so a chain of helpers is settled in one pass (a
	// cycle is cut: its functions are taken to return).
	calls := func(fd *ast.FuncDecl) []*ast.FuncDecl {
		var out []*ast.FuncDecl
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil {
					if cd := declOf[fn.Origin()]; cd != nil {
						out = append(out, cd)
					}
				}
			}
			return true
		})
		return out
	}
	for _, fd := range callorder.CalleesFirst(decls, calls) {
		fn, ok := info.Defs[fd.Name].(*types.Func)
		if !ok || !mayEnd(info, fd.Body, fs) {
			continue
		}
		if i, ok := judge(info, fd, mayReturn); ok {
			fs.local[fn] = i
			pass.ExportObjectFact(fn, &Fact{OnError: i})
		}
	}
	for call, vs := range guards {
		if fs.exits(call, vs) {
			res.exits[call] = true
		}
	}
	return res, nil
}

// mayEnd reports whether body has what a function that does not return
// needs, before its graph is built: a call that may not return (by
// Intrinsic or a fact), a loop without a condition, or an empty select.
func mayEnd(info *types.Info, body *ast.BlockStmt, fs *facts) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			found = found || n.Cond == nil
		case *ast.SelectStmt:
			found = found || len(n.Body.List) == 0
		case *ast.CallExpr:
			if Intrinsic(info, n) {
				found = true
			} else if fn, _ := typeutil.Callee(info, n).(*types.Func); fn != nil {
				_, has := fs.of(fn)
				found = found || has
			}
		}
		return !found
	})
	return found
}

// judge returns the fact of fd, if it has one.
func judge(info *types.Info, fd *ast.FuncDecl, mayReturn func(*ast.CallExpr) bool) (int, bool) {
	g := cfg.New(fd.Body, mayReturn)
	if !returnsOnPath(info, g, nil) {
		return -1, true
	}
	i := 0
	for _, field := range fd.Type.Params.List {
		names := max(len(field.Names), 1)
		for k := 0; k < names; k++ {
			if len(field.Names) > 0 {
				v, _ := info.Defs[field.Names[k]].(*types.Var)
				if v != nil && isError(v.Type()) && !assigned(info, fd.Body, v) && !returnsOnPath(info, g, v) {
					return i, true
				}
			}
			i++
		}
	}
	return 0, false
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool { return types.Identical(t, errorType) }

// returnsOnPath reports whether a return of g is reachable from its
// entry; when errVar is not nil, only through the not-nil side of each
// test of errVar against nil.
func returnsOnPath(info *types.Info, g *cfg.CFG, errVar *types.Var) bool {
	if len(g.Blocks) == 0 {
		return true
	}
	seen := map[*cfg.Block]bool{}
	stack := []*cfg.Block{g.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if b.Return() != nil {
			return true
		}
		succs := b.Succs
		if errVar != nil && len(succs) == 2 && len(b.Nodes) > 0 {
			if cond, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr); ok {
				switch nilTest(info, cond, errVar) {
				case token.NEQ:
					succs = succs[:1]
				case token.EQL:
					succs = succs[1:]
				}
			}
		}
		stack = append(stack, succs...)
	}
	return false
}

// nilTest returns NEQ for v != nil, EQL for v == nil, and ILLEGAL for
// any other condition.
func nilTest(info *types.Info, cond ast.Expr, v *types.Var) token.Token {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ && be.Op != token.EQL {
		return token.ILLEGAL
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if isNil(info, x) {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || info.Uses[id] != v || !isNil(info, y) {
		return token.ILLEGAL
	}
	return be.Op
}

func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

// assigned reports whether v is assigned anywhere in body.
func assigned(info *types.Info, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.Uses[id] == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// nonNilAt returns every call of the package with the variables that
// the if statements around it (in its own function) test not to be nil:
// the body of if v != nil, the else of if v == nil.
func nonNilAt(pass *analysis.Pass) map[*ast.CallExpr][]*types.Var {
	info := pass.TypesInfo
	out := map[*ast.CallExpr][]*types.Var{}
	var walk func(n ast.Node, vs []*types.Var)
	walk = func(n ast.Node, vs []*types.Var) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				walk(m.Body, nil)
				return false
			case *ast.IfStmt:
				if m.Init != nil {
					walk(m.Init, vs)
				}
				walk(m.Cond, vs)
				walk(m.Body, append(tested(info, m.Cond, token.NEQ), vs...))
				if m.Else != nil {
					walk(m.Else, append(tested(info, m.Cond, token.EQL), vs...))
				}
				return false
			case *ast.CallExpr:
				out[m] = vs
			}
			return true
		})
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				walk(fd.Body, nil)
			}
		}
	}
	return out
}

// tested returns the variables cond, when it holds, shows not to be nil
// (op NEQ) or, when it does not hold, shows not to be nil (op EQL):
// v != nil and conjunctions of it; v == nil and disjunctions of it.
func tested(info *types.Info, cond ast.Expr, op token.Token) []*types.Var {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	switch {
	case op == token.NEQ && be.Op == token.LAND, op == token.EQL && be.Op == token.LOR:
		return append(tested(info, be.X, op), tested(info, be.Y, op)...)
	case be.Op != op:
		return nil
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if isNil(info, x) {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || !isNil(info, y) {
		return nil
	}
	if v, ok := info.Uses[id].(*types.Var); ok {
		return []*types.Var{v}
	}
	return nil
}
