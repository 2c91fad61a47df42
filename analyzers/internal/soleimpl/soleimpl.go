// Package soleimpl maps the methods of a package's interfaces to the
// methods of their only implementation in the same package, or in the
// project (Project).
//
// Real code hides its Redis client, its repository and its lock behind
// interfaces it declares beside the one type that implements them
// (type Order interface{...}; type OrderDB struct{...}). A call through
// such an interface can only reach that type, as far as the package
// shows, so what the implementation does (its lock ops, its writes) is
// what the interface method does. Two types whose methods of the
// interface are the same functions (one embeds the other: go-zero's
// customXModel embeds *defaultXModel) count as one. With two or more
// implementations, or none, the interface method stays unknown, unless
// the caller tells which implementations count (see Methods).
package soleimpl

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Methods returns, for each method of an interface declared in pkg that
// exactly one named type of pkg (or its pointer) implements, that type's
// method declared in pkg. When several types implement it and counts is
// not nil, the one type for which counts reports true stands for the
// interface, if there is exactly one: a go-redis cache beside in-memory
// stand-ins of it.
func Methods(pkg *types.Package, counts func(*types.TypeName) bool) map[*types.Func]*types.Func {
	scope := pkg.Scope()
	var ifaces, concrete []*types.TypeName
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if types.IsInterface(tn.Type()) {
			ifaces = append(ifaces, tn)
		} else {
			concrete = append(concrete, tn)
		}
	}
	out := map[*types.Func]*types.Func{}
	for _, it := range ifaces {
		iface, _ := it.Type().Underlying().(*types.Interface)
		if iface == nil || iface.NumMethods() == 0 {
			continue
		}
		var impl, counted types.Type
		n, nc := 0, 0
		for _, c := range concrete {
			for _, t := range []types.Type{c.Type(), types.NewPointer(c.Type())} {
				if types.Implements(t, iface) {
					if impl != nil && sameMethods(iface, impl, t) {
						break // a wrapper that embeds it: the same methods
					}
					impl = t
					n++
					if counts != nil && counts(c) {
						counted = t
						nc++
					}
					break
				}
			}
		}
		switch {
		case n == 1:
		case nc == 1:
			impl = counted
		default:
			continue
		}
		for i := 0; i < iface.NumMethods(); i++ {
			m := iface.Method(i)
			obj, _, _ := types.LookupFieldOrMethod(impl, true, pkg, m.Name())
			if fn, ok := obj.(*types.Func); ok && fn.Pkg() == pkg {
				out[m] = fn
			}
		}
	}
	return out
}

// Of returns the method implementing interface method m (declared in any
// package) when exactly one named type of pkg implements m's interface,
// or nil.
func Of(pkg *types.Package, m *types.Func) *types.Func {
	sig := m.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return nil
	}
	iface, ok := sig.Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var found *types.Func
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		for _, typ := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !types.Implements(typ, iface) {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(typ, true, pkg, m.Name())
			impl, ok := obj.(*types.Func)
			if !ok {
				return nil
			}
			if found != nil && found != impl {
				return nil // two implementations: unknown
			}
			found = impl
			break
		}
	}
	return found
}

// Project finds the only implementation of an interface among the types
// of a package and of the packages of its project that it imports,
// directly or not: a job package's narrow store interface (Allocate(...)
// (*store.Stock, error)) implemented by the store package it imports, or
// a domain interface implemented by a services package. A project is the
// module when the driver names it, else the repository the import path
// names (host and owner and repository on a code host, host and one
// element on another domain, the first element without a domain). Left
// out: types declared in _test.go files, and stand-ins (mock, fake or
// stub in a type's name or a package path element, and packages of test
// helpers). An interface of one
// method must also mention a type of its implementation's package, so
// that a type that merely happens to have a method of that shape (an
// Update(ctx, n int) error) does not stand for it.
type Project struct {
	inProject func(path string) bool
	types     []*types.TypeName
	impls     map[*types.Interface]types.Type // nil: none or several
	resolved  map[*types.Interface]bool
}

// NewProject collects the project's types; module is the module path
// ("" when unknown), inTest reports whether a type of pkg is declared in
// a _test.go file.
func NewProject(pkg *types.Package, module string, inTest func(*types.TypeName) bool) *Project {
	p := &Project{impls: map[*types.Interface]types.Type{}, resolved: map[*types.Interface]bool{}}
	root := projectRoot(pkg.Path())
	inProject := func(path string) bool {
		if module != "" {
			return path == module || strings.HasPrefix(path, module+"/")
		}
		return projectRoot(path) == root
	}
	p.inProject = inProject
	seen := map[*types.Package]bool{}
	var walk func(q *types.Package)
	walk = func(q *types.Package) {
		if seen[q] || !inProject(q.Path()) {
			return
		}
		seen[q] = true
		for _, imp := range q.Imports() {
			walk(imp)
		}
		if standInPackage(q.Path()) {
			return
		}
		scope := q.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) || standIn(tn.Name()) || q == pkg && inTest(tn) {
				continue
			}
			p.types = append(p.types, tn)
		}
	}
	walk(pkg)
	return p
}

// ProjectOf is NewProject for the package pass analyses.
func ProjectOf(pass *analysis.Pass) *Project {
	module := ""
	if pass.Module != nil {
		module = pass.Module.Path
	}
	return NewProject(pass.Pkg, module, func(tn *types.TypeName) bool {
		return strings.HasSuffix(pass.Fset.Position(tn.Pos()).Filename, "_test.go")
	})
}

// Method returns the method implementing interface method m, when m's
// interface is the project's own and one type of the project implements
// it, or nil. An interface of another project (io.Writer, a library's
// Logger) stands for whatever its callers pass, not for the one type of
// this project that happens to implement it.
func (p *Project) Method(m *types.Func) *types.Func {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || m.Pkg() == nil || !p.inProject(m.Pkg().Path()) {
		return nil
	}
	iface, ok := sig.Recv().Type().Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return nil
	}
	if !p.resolved[iface] {
		p.resolved[iface] = true
		p.impls[iface] = p.sole(iface)
	}
	impl := p.impls[iface]
	if impl == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(impl, true, m.Pkg(), m.Name())
	fn, _ := obj.(*types.Func)
	return fn
}

func (p *Project) sole(iface *types.Interface) types.Type {
	var impl types.Type
	var owner *types.Package
	for _, tn := range p.types {
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !types.Implements(t, iface) {
				continue
			}
			if impl != nil {
				if sameMethods(iface, impl, t) {
					break // a wrapper that embeds it: the same methods
				}
				return nil // two implementations: unknown
			}
			impl, owner = t, tn.Pkg()
			break
		}
	}
	if impl == nil || iface.NumMethods() == 1 && !mentions(iface.Method(0).Type(), owner) {
		return nil
	}
	return impl
}

// mentions reports whether t refers to a named type declared in pkg.
func mentions(t types.Type, pkg *types.Package) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		return t.Obj().Pkg() == pkg
	case *types.Pointer:
		return mentions(t.Elem(), pkg)
	case *types.Slice:
		return mentions(t.Elem(), pkg)
	case *types.Array:
		return mentions(t.Elem(), pkg)
	case *types.Map:
		return mentions(t.Key(), pkg) || mentions(t.Elem(), pkg)
	case *types.Chan:
		return mentions(t.Elem(), pkg)
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if mentions(tup.At(i).Type(), pkg) {
					return true
				}
			}
		}
	}
	return false
}

// codeHosts name repositories as host/owner/repository.
var codeHosts = []string{"github.com", "gitlab.com", "bitbucket.org", "gitee.com", "codeberg.org"}

// projectRoot is the repository an import path names (see Project).
func projectRoot(path string) string {
	parts := strings.Split(path, "/")
	n := 1
	switch {
	case slices.Contains(codeHosts, parts[0]):
		n = 3
	case strings.Contains(parts[0], "."):
		n = 2
	}
	return strings.Join(parts[:min(n, len(parts))], "/")
}

// standIn reports whether a type's name names a test stand-in.
func standIn(name string) bool {
	name = strings.ToLower(name)
	return strings.Contains(name, "mock") || strings.Contains(name, "fake") || strings.Contains(name, "stub")
}

// standInPackage reports whether an element of a package path names test
// stand-ins or test helpers.
func standInPackage(path string) bool {
	for _, el := range strings.Split(path, "/") {
		switch el = strings.ToLower(el); {
		case standIn(el), el == "test", el == "tests", el == "testutil", el == "testing", el == "testhelpers":
			return true
		}
	}
	return false
}

// sameMethods reports whether a and b implement every method of iface
// with the same function: one embeds the other (go-zero's generated
// customXModel embeds *defaultXModel, and both implement xModel), so
// either stands for the interface.
func sameMethods(iface *types.Interface, a, b types.Type) bool {
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		x, _, _ := types.LookupFieldOrMethod(a, true, m.Pkg(), m.Name())
		y, _, _ := types.LookupFieldOrMethod(b, true, m.Pkg(), m.Name())
		if x == nil || x != y {
			return false
		}
	}
	return true
}
