package lockrelease

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
)

// slotOwner is where a release found the owner it releases with: a slot
// of a map kept in a long-lived value (a struct field or a package
// variable), one slot per key.
type slotOwner struct {
	slot  *types.Var // the map (or sync.Map)
	index ast.Expr   // the slot's index, in the releasing function's terms
	at    ast.Expr   // the lookup, for the message
}

// reportSharedSlots reports owner-checked releases whose owner (the token
// a compare-and-delete compares, or a lock library's handle) is looked up
// by the lock's key in a map the process keeps (r.tokens[key],
// c.locks[key], a sync.Map), which its acquires fill by the same key.
// Every acquisition of one key in the process shares that slot: when a
// holder's lease runs out and another goroutine takes the key, the newer
// owner replaces the older in the slot, and the older holder's release
// then deletes the newer one's lock. The check is made, with the wrong
// token.
func reportSharedSlots(pass *analysis.Pass, res *lifecycle.Result, seen map[token.Pos]bool) {
	filled := filledSlots(pass)
	if len(filled) == 0 {
		return
	}
	declOf := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					declOf[fn] = fd
				}
			}
		}
	}
	report := func(call *ast.CallExpr, o *slotOwner, what string) {
		if seen[call.Pos()] || lifecycle.IsTestFile(pass.Fset, call.Pos()) {
			return
		}
		seen[call.Pos()] = true
		pass.Report(analysis.Diagnostic{
			Pos: call.Pos(), End: call.End(),
			Message: fmt.Sprintf("this release checks the %s found in %s, one slot per key shared by every acquisition in the process: "+
				"when this holder's lease ran out and another goroutine of the process took the key, its %s replaced this one's, "+
				"and this release deletes that goroutine's lock; keep the token with the acquisition (return it, or a lease value such as safelock's Lease) and release with it",
				what, types.ExprString(o.at), what),
			Related: []analysis.RelatedInformation{{Pos: o.at.Pos(), End: o.at.End(), Message: "the owner is looked up by key here"}},
		})
	}
	// Compare-and-delete scripts: the token compared is a slot indexed by
	// the key the script deletes.
	for _, l := range res.Locks {
		if !l.IsLock(pass) {
			continue
		}
		for _, op := range l.Ops {
			if op.Kind != lifecycle.Delete || !op.Checked || op.In.Decl == nil {
				continue
			}
			for _, c := range res.Calls[op.In.Decl] {
				if c.Call != op.Call || c.Cmd == nil || c.Cmd.Script == nil || c.Cmd.Key() == nil {
					continue
				}
				key := rootVar(pass.TypesInfo, c.Cmd.Key())
				for _, a := range c.Cmd.ScriptArgs {
					o := ownerSlot(pass.TypesInfo, declOf, op.In.Decl, a, 0)
					if o != nil && filled[o.slot] && key != nil && rootVar(pass.TypesInfo, o.index) == key {
						report(op.Call, o, "token")
					}
				}
			}
		}
	}
	// A lock library's release on a handle looked up by the name the
	// releasing function was given (Release(ctx, name): locks[name].Unlock()).
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				lc := locklib.Classify(pass.TypesInfo, call)
				if lc == nil || lc.Role != locklib.Release || lc.Recv == nil {
					return true
				}
				o := ownerSlot(pass.TypesInfo, declOf, fd, lc.Recv, 0)
				if o != nil && filled[o.slot] && fromParam(pass.TypesInfo, fd, rootVar(pass.TypesInfo, o.index)) {
					report(call, o, "lock")
				}
				return true
			})
		}
	}
}

// filledSlots returns the maps of long-lived values that the package
// fills by index (m[k] = v; a sync.Map's Store).
func filledSlots(pass *analysis.Pass) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
						if v := longLivedMap(pass.TypesInfo, ix.X); v != nil {
							out[v] = true
						}
					}
				}
			case *ast.CallExpr:
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
					switch sel.Sel.Name {
					case "Store", "LoadOrStore", "Swap":
						if v := longLivedMap(pass.TypesInfo, sel.X); v != nil {
							out[v] = true
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// longLivedMap returns the variable e names when it is a map with string
// keys, or a sync.Map, kept in a struct field or a package variable.
func longLivedMap(info *types.Info, e ast.Expr) *types.Var {
	var v *types.Var
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		v, _ = info.ObjectOf(e.Sel).(*types.Var)
		if v == nil || !v.IsField() {
			return nil
		}
	case *ast.Ident:
		v, _ = info.ObjectOf(e).(*types.Var)
		if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
			return nil
		}
	default:
		return nil
	}
	t := v.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Map" {
		return v
	}
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return nil
	}
	if b, ok := m.Key().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return nil
	}
	return v
}

// ownerSlot traces e, in fd, back to a lookup in a long-lived map:
// m[k], a sync.Map's Load (through a type assertion), a local variable
// assigned once from one, or a helper of this package that returns one
// (its index then read at the call).
func ownerSlot(info *types.Info, declOf map[*types.Func]*ast.FuncDecl, fd *ast.FuncDecl, e ast.Expr, depth int) *slotOwner {
	e = ast.Unparen(e)
	if ta, ok := e.(*ast.TypeAssertExpr); ok {
		e = ast.Unparen(ta.X)
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		// A field of what the slot holds (held.lock of a struct stored
		// with its cancel func).
		if v, ok := info.ObjectOf(sel.Sel).(*types.Var); ok && v.IsField() {
			if longLivedMap(info, sel) == nil {
				e = ast.Unparen(sel.X)
			}
		}
	}
	switch e := e.(type) {
	case *ast.IndexExpr:
		if v := longLivedMap(info, e.X); v != nil {
			return &slotOwner{slot: v, index: e.Index, at: e}
		}
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Load" || sel.Sel.Name == "LoadAndDelete") && len(e.Args) == 1 {
			if v := longLivedMap(info, sel.X); v != nil {
				return &slotOwner{slot: v, index: e.Args[0], at: e}
			}
		}
		fn, _ := typeutil.Callee(info, e).(*types.Func)
		if fn == nil || depth > 1 {
			return nil
		}
		callee := declOf[fn.Origin()]
		if callee == nil {
			return nil
		}
		var found *slotOwner
		ok := true
		ast.Inspect(callee.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) == 0 {
					ok = false
					return false
				}
				r := ast.Unparen(n.Results[0])
				if id, isID := r.(*ast.Ident); isID && id.Name == "nil" {
					return false
				}
				o := ownerSlot(info, declOf, callee, r, depth+1)
				if o == nil || found != nil && found.slot != o.slot {
					ok = false
					return false
				}
				found = o
			}
			return ok
		})
		if !ok || found == nil {
			return nil
		}
		// The helper's index, when it is one of its parameters, is the
		// argument the call passes.
		if p := rootVar(info, found.index); p != nil {
			params := fn.Type().(*types.Signature).Params()
			for i := 0; i < params.Len() && i < len(e.Args); i++ {
				if params.At(i) == p {
					return &slotOwner{slot: found.slot, index: e.Args[i], at: found.at}
				}
			}
		}
		return nil
	case *ast.Ident:
		v, _ := info.ObjectOf(e).(*types.Var)
		if v == nil || depth > 2 {
			return nil
		}
		var from ast.Expr
		assigned := 0
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.ObjectOf(id) == v {
					assigned++
					if i == 0 && len(as.Rhs) == 1 {
						from = as.Rhs[0]
					}
				}
			}
			return true
		})
		if assigned != 1 || from == nil || comparedWithOwn(info, fd, v) {
			return nil
		}
		return ownerSlot(info, declOf, fd, from, depth+1)
	}
	return nil
}

// rootVar returns the variable a plain identifier names, or nil.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	return v
}

// fromParam reports whether v is a parameter of fd, or a local assigned
// once from an expression of its parameters (key := prefix(name)).
func fromParam(info *types.Info, fd *ast.FuncDecl, v *types.Var) bool {
	if v == nil {
		return false
	}
	if isParam(info, fd, v) {
		return true
	}
	var from ast.Expr
	assigned := 0
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.ObjectOf(id) == v {
					assigned++
					if len(as.Rhs) == len(as.Lhs) {
						from = as.Rhs[i]
					}
				}
			}
		}
		return true
	})
	if assigned != 1 || from == nil {
		return false
	}
	uses := false
	ast.Inspect(from, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if p, ok := info.ObjectOf(id).(*types.Var); ok && isParam(info, fd, p) {
				uses = true
			}
		}
		return !uses
	})
	return uses
}

// isParam reports whether v is a parameter of fd.
func isParam(info *types.Info, fd *ast.FuncDecl, v *types.Var) bool {
	if v == nil {
		return false
	}
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if info.ObjectOf(n) == v {
				return true
			}
		}
	}
	return false
}

// comparedWithOwn reports whether fd compares v with something other
// than nil (al != expected): the release checks that the slot still
// holds the caller's own acquisition.
func comparedWithOwn(info *types.Info, fd *ast.FuncDecl, v *types.Var) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL && b.Op != token.NEQ {
			return !found
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if rootVar(info, pair[0]) == v {
				if id, ok := ast.Unparen(pair[1]).(*ast.Ident); !ok || id.Name != "nil" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
