package section

import (
	"fmt"
	"go/ast"
	"go/types"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/soleimpl"
)

// WrapperFact marks a function that calls one of its func parameters
// while it holds a lock — WithLock(key, fn), LockDo(name, fn) — so the
// function literal a caller passes there is a critical section too.
type WrapperFact struct {
	Param int         // the func parameter called in the section
	Lib   locklib.Lib // the lock's library
	How   string      // how the wrapper acquires, for messages
	Key   string      // the key, keyexpr Exact form with $pN$ for parameters
	// Anchored: Key is stable across functions (keyexpr).
	Anchored bool
	// TTL is the lock's TTL when it is a constant (0 otherwise). Renewed:
	// the lock renews itself, is renewed, or may be (unknown).
	TTL     time.Duration
	Renewed bool
}

func (*WrapperFact) AFact() {}

func (f *WrapperFact) String() string {
	return fmt.Sprintf("runs param %d under %s %s", f.Param, f.How, keyexpr.Pretty(f.Key))
}

// exportWrappers records a WrapperFact for each function whose section
// calls one of its func parameters.
func (b *builder) exportWrappers() {
	info := b.pass.TypesInfo
	if locklib.IsLibPath(b.pass.Pkg.Path()) {
		return // the libraries' own Do is modelled by locklib
	}
	for _, s := range b.sections {
		fd, ok := s.Func.(*ast.FuncDecl)
		if !ok || s.Lock.Call != nil && s.Lock.Call.Fn != nil {
			continue
		}
		fn, ok := info.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		params := fn.Type().(*types.Signature).Params()
		param := -1
		s.Inspect(func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || param >= 0 {
				return param < 0
			}
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				for i := 0; i < params.Len(); i++ {
					if info.Uses[id] == params.At(i) {
						param = i
					}
				}
			}
			return true
		})
		if param < 0 {
			continue
		}
		lk := s.Lock
		f := &WrapperFact{Param: param, Lib: lk.Lib, How: lk.How, Anchored: lk.Key.Anchored}
		if lk.Key.Known() {
			f.Key = lk.Key.Exported().Exact
		}
		if d, ok := s.TTLValue(info, b.defs); ok {
			f.TTL = d
		}
		f.Renewed = lk.AutoRenew != No || len(lk.Renewals) > 0 || lk.RenewUnknown || len(lk.Watches) > 0
		b.wrappers[fn] = f
		b.pass.ExportObjectFact(fn, f)
	}
	// A call through this package's interface whose only implementation
	// is the wrapper runs the wrapper (type Lock interface{ WithLock(...) }
	// beside RedisLock): other packages see the same fact there.
	for m, impl := range soleimpl.Methods(b.pass.Pkg, nil) {
		if f := b.wrappers[impl]; f != nil && b.wrappers[m] == nil {
			b.wrappers[m] = f
			b.pass.ExportObjectFact(m, f)
		}
	}
}

// wrapperSections opens a section in every function literal (or
// function of this package) passed to a wrapper's func parameter.
func (b *builder) wrapperSections() {
	info := b.pass.TypesInfo
	for _, fd := range b.decls {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			callee, _ := typeutil.Callee(info, call).(*types.Func)
			if callee == nil {
				return true
			}
			f := b.wrappers[callee]
			if f == nil && callee.Pkg() != nil && callee.Pkg() != b.pass.Pkg {
				f = new(WrapperFact)
				if !b.pass.ImportObjectFact(callee.Origin(), f) {
					f = nil
				}
			}
			if f == nil || f.Param >= len(call.Args) || locklib.Classify(info, call) != nil {
				return true
			}
			var body ast.Node
			sectionDecl := fd
			switch a := ast.Unparen(call.Args[f.Param]).(type) {
			case *ast.FuncLit:
				body = a
			case *ast.Ident, *ast.SelectorExpr:
				id, _ := a.(*ast.Ident)
				if sel, ok := a.(*ast.SelectorExpr); ok {
					id = sel.Sel
				}
				if tf, ok := info.Uses[id].(*types.Func); ok && b.declOf[tf] != nil {
					body, sectionDecl = b.declOf[tf], b.declOf[tf]
				}
			}
			if body == nil {
				return true
			}
			env := b.lc.Env(fd)
			args := make([]keyexpr.Key, len(call.Args))
			for i, a := range call.Args {
				args[i] = env.Of(a)
			}
			lk := &Lock{
				Lib: f.Lib, Acquire: call, How: fmt.Sprintf("%s in %s", f.How, lifecycle.FuncName(callee)),
				Key: keyexpr.FromExact(f.Key, f.Anchored).Subst(args), AutoRenew: No,
			}
			if f.TTL > 0 {
				lk.DefaultTTL = f.TTL
			}
			if f.Renewed {
				lk.RenewUnknown = true
			}
			g := b.cfgOf(body)
			if g == nil {
				return true
			}
			s := b.newSection(lk, body, sectionDecl)
			for _, blk := range g.Blocks {
				if blk.Live {
					s.Nodes = append(s.Nodes, blk.Nodes...)
				}
			}
			b.sections = append(b.sections, s)
			return true
		})
	}
}
