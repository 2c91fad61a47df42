package redismodel

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
)

// rawWrappers finds the package's own functions that send any command
// through redigo, passing their command-name parameter and variadic
// arguments straight to Do or Send:
//
//	func (r *Redis) do(cmd string, args ...interface{}) (interface{}, error) {
//		conn := r.pool.Get()
//		defer conn.Close()
//		return conn.Do(cmd, args...)
//	}
//
// A call of such a wrapper (r.do("SET", key, v, "EX", 30, "NX")) is read
// as the command it sends.
func (p *parser) rawWrappers() map[*types.Func]bool {
	if p.raw != nil {
		return p.raw
	}
	p.raw = map[*types.Func]bool{}
	for _, f := range p.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := p.info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			name, args := rawParams(fn)
			if name == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || p.raw[fn] || !call.Ellipsis.IsValid() || len(call.Args) < 2 {
					return !ok || !p.raw[fn]
				}
				callee, _ := typeutil.Callee(p.info, call).(*types.Func)
				if callee == nil || callee.Pkg() == nil || !isRedigo(callee.Pkg().Path()) {
					return true
				}
				if cn, ca := rawParams(callee); cn == nil || ca == nil {
					return true
				}
				if p.uses(call.Args[len(call.Args)-2], name) && p.uses(call.Args[len(call.Args)-1], args) {
					p.raw[fn] = true
				}
				return true
			})
		}
	}
	return p.raw
}

// isRaw reports whether fn is a raw command wrapper: of this package
// (rawWrappers), or of another one (a fact; a client library such as
// github.com/sk-pkg/redis whose Manager.Do forwards to redigo).
func (p *parser) isRaw(fn *types.Func) bool {
	if fn.Pkg() == p.pass.Pkg {
		return p.rawWrappers()[fn]
	}
	return p.importedRaw != nil && p.importedRaw(fn)
}

// RawWrappers returns the functions of the pass's package that forward
// their command name and arguments to redigo's Do or Send, for a fact
// that lets importers read their calls as commands.
func RawWrappers(pass *analysis.Pass) map[*types.Func]bool {
	return newParser(pass, keyexpr.NewDefs(pass.TypesInfo, pass.Files), nil).rawWrappers()
}

// rawParams returns the command-name parameter and the variadic
// arguments of a (name string, args ...interface{}) signature (other
// parameters may come first), or nils.
func rawParams(fn *types.Func) (name, args *types.Var) {
	sig := fn.Type().(*types.Signature)
	ps := sig.Params()
	if !sig.Variadic() || ps.Len() < 2 || !isString(ps.At(ps.Len()-2).Type()) {
		return nil, nil
	}
	last := ps.At(ps.Len() - 1)
	slice, ok := last.Type().(*types.Slice)
	if !ok {
		return nil, nil
	}
	if it, ok := slice.Elem().Underlying().(*types.Interface); !ok || !it.Empty() {
		return nil, nil
	}
	return ps.At(ps.Len() - 2), last
}

// uses reports whether e is exactly the variable v.
func (p *parser) uses(e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && p.info.Uses[id] == v
}
