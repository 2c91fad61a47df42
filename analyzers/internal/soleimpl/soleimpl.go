// Package soleimpl maps the methods of a package's interfaces to the
// methods of their only implementation in the same package.
//
// Real code hides its Redis client, its repository and its lock behind
// interfaces it declares beside the one type that implements them
// (type Order interface{...}; type OrderDB struct{...}). A call through
// such an interface can only reach that type, as far as the package
// shows, so what the implementation does (its lock ops, its writes) is
// what the interface method does. With two or more implementations, or
// none, the interface method stays unknown, unless the caller tells which
// implementations count (see Methods).
package soleimpl

import "go/types"

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
