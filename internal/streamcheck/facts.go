package streamcheck

import (
	"fmt"
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// factStore holds every analyzer's facts for the whole run. In one process
// a dependency's types.Object is the very object its importers see, so a
// fact is looked up by the object itself (no serialisation). Facts are
// small and few; they outlive the syntax they were computed from.
type factStore struct {
	mu     sync.Mutex
	objs   map[objectKey]analysis.Fact
	pkgs   map[packageKey]analysis.Fact
	byUnit map[*unit]*unitFacts // what each package exported, for All*Facts
}

type objectKey struct {
	a   *analysis.Analyzer
	obj types.Object
	t   reflect.Type
}

type packageKey struct {
	a   *analysis.Analyzer
	pkg *types.Package
	t   reflect.Type
}

// unitFacts are the facts one package exported (a subset of the store's).
type unitFacts struct {
	objs map[objectKey]analysis.Fact
	pkgs map[packageKey]analysis.Fact
}

func newFactStore() *factStore {
	return &factStore{objs: make(map[objectKey]analysis.Fact), pkgs: make(map[packageKey]analysis.Fact), byUnit: make(map[*unit]*unitFacts)}
}

// bind gives pass the fact functions of its analyzer on unit u. A fact is
// visible to u when u or one of its transitive imports exported it, as
// in go/analysis.
func (s *factStore) bind(pass *analysis.Pass, u *unit, units map[*packages.Package]*unit) {
	a := pass.Analyzer
	s.mu.Lock()
	mine := s.byUnit[u]
	if mine == nil {
		mine = &unitFacts{objs: make(map[objectKey]analysis.Fact), pkgs: make(map[packageKey]analysis.Fact)}
		s.byUnit[u] = mine
	}
	s.mu.Unlock()

	pass.ImportObjectFact = func(obj types.Object, fact analysis.Fact) bool {
		if obj == nil {
			panic("ImportObjectFact: nil object")
		}
		s.mu.Lock()
		v, ok := s.objs[objectKey{a, obj, reflect.TypeOf(fact)}]
		s.mu.Unlock()
		return copyFact(fact, v, ok)
	}
	pass.ExportObjectFact = func(obj types.Object, fact analysis.Fact) {
		if obj.Pkg() != pass.Pkg {
			panic(fmt.Sprintf("analyzer %s exported a fact for %s, which is not in package %s", a.Name, obj, pass.Pkg.Path()))
		}
		k := objectKey{a, obj, reflect.TypeOf(fact)}
		s.mu.Lock()
		s.objs[k], mine.objs[k] = fact, fact
		s.mu.Unlock()
	}
	pass.ImportPackageFact = func(pkg *types.Package, fact analysis.Fact) bool {
		s.mu.Lock()
		v, ok := s.pkgs[packageKey{a, pkg, reflect.TypeOf(fact)}]
		s.mu.Unlock()
		return copyFact(fact, v, ok)
	}
	pass.ExportPackageFact = func(fact analysis.Fact) {
		k := packageKey{a, pass.Pkg, reflect.TypeOf(fact)}
		s.mu.Lock()
		s.pkgs[k], mine.pkgs[k] = fact, fact
		s.mu.Unlock()
	}
	pass.AllObjectFacts = func() []analysis.ObjectFact {
		var out []analysis.ObjectFact
		s.visible(u, units, func(f *unitFacts) {
			for k, fact := range f.objs {
				if k.a == a {
					out = append(out, analysis.ObjectFact{Object: k.obj, Fact: fact})
				}
			}
		})
		return out
	}
	pass.AllPackageFacts = func() []analysis.PackageFact {
		var out []analysis.PackageFact
		s.visible(u, units, func(f *unitFacts) {
			for k, fact := range f.pkgs {
				if k.a == a {
					out = append(out, analysis.PackageFact{Package: k.pkg, Fact: fact})
				}
			}
		})
		return out
	}
}

// copyFact sets *dst to *src when found; facts are pointers to structs.
func copyFact(dst, src analysis.Fact, found bool) bool {
	if found {
		reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(src).Elem())
	}
	return found
}

// visible calls fn with the facts of u and of each package u imports,
// directly or not.
func (s *factStore) visible(u *unit, units map[*packages.Package]*unit, fn func(*unitFacts)) {
	seen := map[*unit]bool{u: true}
	stack := []*unit{u}
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f := s.byUnit[v]; f != nil {
			fn(f)
		}
		for _, imp := range v.pkg.Imports {
			if d := units[imp]; d != nil && !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
}
