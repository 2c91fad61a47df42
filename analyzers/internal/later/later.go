// Package later finds the code a function starts but does not run to its
// end before it goes on: goroutines it does not wait for, and functions
// it hands to something that runs them after the call returns (a worker
// pool's Submit, a task queue, time.AfterFunc).
//
// Such code is not under a lock its starter holds: a worker may run it
// after the release, or alongside the next holder. Rules that ask what
// runs while a lock is held leave it out (see [Result.Async]).
//
// A function hands a parameter over to later code ([Fact]) when the
// parameter, or a local value made from it (&Task{Fn: fn}), is used in a
// goroutine it does not wait for, sent on a channel, stored outside the
// function (a field, a map or slice element, a package variable), or
// passed to a parameter of a function that hands it over in turn (within
// the package, and across packages through facts). Waiting means a later
// Wait on a sync.WaitGroup or an errgroup.Group that the started code
// uses (wg.Done), or a receive from a channel it uses. A parameter a function only calls
// runs before it returns; so does one passed to an interface method or a
// function whose body is unknown (an unknown stays "runs now": leaving
// code out of a section is the claim that needs evidence).
package later

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/gostd"
)

// Analyzer computes the [Fact]s of a package's functions and the
// [Result] that rules ask about a function body.
var Analyzer = &analysis.Analyzer{
	Name:             "locklater",
	Doc:              "finds function parameters that a function hands to code running after it returns, for locklint rules",
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/internal/later/later.go",
	Run:              run,
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*Result](),
	FactTypes:        []analysis.Fact{new(Fact)},
}

// Fact lists the parameters (from 0, the receiver not counted) that a
// function hands to code that runs after it returns.
type Fact struct{ Params []int }

func (*Fact) AFact() {}

func (f *Fact) String() string { return fmt.Sprintf("later%v", f.Params) }

// std lists the standard library's functions that run a parameter later;
// their bodies are not read (timers live in the runtime).
var std = map[string][]int{
	"time.AfterFunc":       {1},
	"context.AfterFunc":    {1},
	"(*sync.WaitGroup).Go": {0},
}

// Result answers for the function bodies of one package.
type Result struct {
	info  *types.Info
	calls map[*ast.CallExpr][]int // calls whose callee hands these arguments over
}

// Async returns the nodes of body that run later: go statements whose
// goroutine body does not wait for, and function literals handed (as an
// argument, or inside one: &Task{Fn: func() {...}}) to a parameter that
// runs later, such as a pool's Submit, when body does not wait for them
// either. Inspecting body without these nodes visits what runs before
// body goes on.
func (r *Result) Async(body ast.Node) map[ast.Node]bool {
	if r == nil || body == nil {
		return nil
	}
	var out map[ast.Node]bool
	add := func(n ast.Node, by ast.Expr) {
		if !waited(r.info, body, n, by) {
			if out == nil {
				out = map[ast.Node]bool{}
			}
			out[n] = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			add(n, nil)
			return false
		case *ast.CallExpr:
			for _, a := range handed(n, r.calls[n]) {
				// Only a literal's body runs later; the rest of the
				// argument (a context, a value) is evaluated now.
				ast.Inspect(a, func(m ast.Node) bool {
					if lit, ok := m.(*ast.FuncLit); ok {
						add(lit, n.Fun)
						return false
					}
					return true
				})
			}
		}
		return true
	})
	return out
}

// handed returns the arguments of call that go to the parameters ps
// (a variadic last parameter takes the rest).
func handed(call *ast.CallExpr, ps []int) []ast.Expr {
	var out []ast.Expr
	for _, p := range ps {
		if p < len(call.Args) {
			out = append(out, call.Args[p])
		}
	}
	return out
}

func run(pass *analysis.Pass) (any, error) {
	info := pass.TypesInfo
	res := &Result{info: info, calls: map[*ast.CallExpr][]int{}}
	var decls []*ast.FuncDecl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls = append(decls, fd)
			}
		}
	}
	local := map[*types.Func][]int{}
	imported := map[*types.Func][]int{}
	laterParams := func(call *ast.CallExpr) []int {
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil {
			return nil
		}
		fn = fn.Origin()
		if ps, ok := std[stdName(fn)]; ok {
			return ps
		}
		if ps, ok := local[fn]; ok || fn.Pkg() == pass.Pkg || fn.Pkg() == nil {
			return ps
		}
		ps, ok := imported[fn]
		if !ok {
			var f Fact
			if pass.ImportObjectFact(fn, &f) {
				ps = f.Params
			}
			imported[fn] = ps
		}
		return ps
	}
	if !gostd.Contains(pass) {
		// Helpers calling helpers: a few rounds until nothing changes.
		for round := 0; round < 4; round++ {
			changed := false
			for _, fd := range decls {
				fn, ok := info.Defs[fd.Name].(*types.Func)
				if !ok {
					continue
				}
				ps := handsOver(info, fd, laterParams)
				if !slices.Equal(ps, local[fn]) {
					changed = true
					if ps == nil {
						delete(local, fn)
					} else {
						local[fn] = ps
					}
				}
			}
			if !changed {
				break
			}
		}
		for fn, ps := range local {
			pass.ExportObjectFact(fn, &Fact{Params: ps})
		}
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if ps := laterParams(call); len(ps) > 0 {
					res.calls[call] = ps
				}
			}
			return true
		})
	}
	return res, nil
}

// handsOver returns the parameters of fd that it hands to later code.
func handsOver(info *types.Info, fd *ast.FuncDecl, laterParams func(*ast.CallExpr) []int) []int {
	// carriers maps each parameter, and each local made from one, to
	// the parameters it carries.
	carriers := map[types.Object][]int{}
	i := 0
	for _, field := range fd.Type.Params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, id := range field.Names {
			if obj := info.Defs[id]; obj != nil && mayCarryFunc(obj.Type()) {
				carriers[obj] = []int{i}
			}
			i++
		}
	}
	if len(carriers) == 0 {
		return nil
	}
	carried := func(e ast.Node) []int {
		var out []int
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				for _, p := range carriers[info.Uses[id]] {
					if !slices.Contains(out, p) {
						out = append(out, p)
					}
				}
			}
			return true
		})
		return out
	}
	// Locals assigned from a carrier carry it too (task := &Task{Fn: fn}).
	for changed := true; changed; {
		changed = false
		carry := func(lhs ast.Expr, rhs ast.Node) {
			id, ok := lhs.(*ast.Ident)
			if !ok {
				return
			}
			obj := info.ObjectOf(id)
			if obj == nil || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
				return
			}
			for _, p := range carried(rhs) {
				if !slices.Contains(carriers[obj], p) {
					carriers[obj] = append(carriers[obj], p)
					changed = true
				}
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for k, lhs := range n.Lhs {
						carry(lhs, n.Rhs[k])
					}
				}
			case *ast.RangeStmt:
				if n.Value != nil {
					carry(n.Value, n.X) // for _, fn := range fns
				}
			}
			return true
		})
	}
	var out []int
	mark := func(ps []int) {
		for _, p := range ps {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			if !waited(info, fd.Body, n, nil) {
				mark(carried(n))
			}
			return false
		case *ast.SendStmt:
			mark(carried(n.Value))
		case *ast.AssignStmt:
			for k, lhs := range n.Lhs {
				if k < len(n.Rhs) && len(n.Lhs) == len(n.Rhs) && stored(info, lhs) {
					mark(carried(n.Rhs[k]))
				}
			}
		case *ast.CallExpr:
			for _, a := range handed(n, laterParams(n)) {
				if !waited(info, fd.Body, a, n.Fun) {
					mark(carried(a))
				}
			}
		}
		return true
	})
	slices.Sort(out)
	return out
}

// stored reports whether an assignment to lhs keeps the value beyond the
// function: a field, an element, a dereference, a package variable.
func stored(info *types.Info, lhs ast.Expr) bool {
	switch lhs := ast.Unparen(lhs).(type) {
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		return true
	case *ast.Ident:
		obj := info.ObjectOf(lhs)
		return obj != nil && obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
	}
	return false
}

// mayCarryFunc reports whether a value of type t can hold a function: a
// func, or a pointer, struct, interface or channel (a Task with a Run
// field, a Runnable).
func mayCarryFunc(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Signature, *types.Interface, *types.Struct, *types.Chan:
		return true
	case *types.Pointer:
		_, ok := t.Elem().Underlying().(*types.Struct)
		return ok
	case *types.Slice:
		return mayCarryFunc(t.Elem())
	}
	return false
}

// waited reports whether body, after n, waits for the code n starts: a
// Wait on a sync.WaitGroup or errgroup.Group that n uses (wg.Done), or a
// receive from (or a range over) a channel that n uses. A wait on
// something n does not touch says nothing about n. For code handed over
// by a call of by (g.Go, pool.Submit), any Wait on the variable at the
// root of by's receiver waits for it too (g.Go(fn) ... g.Wait()).
func waited(info *types.Info, body, n ast.Node, by ast.Expr) bool {
	used := map[types.Object]bool{}
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok {
			if obj := info.Uses[id]; obj != nil {
				used[obj] = true
			}
		}
		return true
	})
	var handler types.Object
	if sel, ok := ast.Unparen(by).(*ast.SelectorExpr); ok {
		handler = rootVar(info, sel.X)
	}
	usedChan := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		obj := info.Uses[id]
		if obj == nil || !used[obj] {
			return false
		}
		_, ok = obj.Type().Underlying().(*types.Chan)
		return ok
	}
	found := false
	ast.Inspect(body, func(m ast.Node) bool {
		if found || m == nil || m == n || m.End() <= n.Pos() {
			return false
		}
		if m.Pos() < n.End() {
			return true // encloses n: look inside for what follows it
		}
		switch m := m.(type) {
		case *ast.CallExpr:
			if recv := waitRecv(info, m); recv != nil && used[recv] {
				found = true
			} else if handler != nil && isWaitOn(info, m, handler) {
				found = true
			}
		case *ast.UnaryExpr:
			if m.Op == token.ARROW && usedChan(m.X) {
				found = true
			}
		case *ast.RangeStmt:
			if usedChan(m.X) {
				found = true
			}
		}
		return !found
	})
	return found
}

// waitRecv returns the variable at the root of the receiver of call when
// call is Wait on a sync.WaitGroup or an errgroup.Group (wg in wg.Wait(),
// s in s.wg.Wait()), and nil otherwise.
func waitRecv(info *types.Info, call *ast.CallExpr) types.Object {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Name() != "Wait" || fn.Pkg() == nil {
		return nil
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok {
		return nil
	}
	name, path := named.Obj().Name(), fn.Pkg().Path()
	group := path == "sync" && name == "WaitGroup" || strings.HasSuffix(path, "/errgroup") && name == "Group"
	if !group {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return rootVar(info, sel.X)
}

// isWaitOn reports whether call is a method named Wait whose receiver's
// root variable is v (p.Wait() for a pool p, s.pool.Wait() for s).
func isWaitOn(info *types.Info, call *ast.CallExpr, v types.Object) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Wait" {
		return false
	}
	if _, ok := info.Uses[sel.Sel].(*types.Func); !ok {
		return false
	}
	return rootVar(info, sel.X) == v
}

// rootVar returns the variable at the root of a selector chain (s in
// s.wg, wg in &wg), or nil.
func rootVar(info *types.Info, x ast.Expr) types.Object {
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			x = e.X
		case *ast.StarExpr:
			x = e.X
		case *ast.UnaryExpr:
			x = e.X
		case *ast.Ident:
			if v, ok := info.Uses[e].(*types.Var); ok {
				return v
			}
			return nil
		default:
			return nil
		}
	}
}

// stdName renders a standard library function as std's keys do.
func stdName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return fn.Pkg().Path() + "." + fn.Name()
	}
	t := recv.Type()
	star := ""
	if p, ok := t.(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	named, ok := t.(*types.Named)
	if !ok {
		return ""
	}
	return "(" + star + fn.Pkg().Path() + "." + named.Obj().Name() + ")." + fn.Name()
}
