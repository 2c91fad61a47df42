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

type unitFacts struct {
	objs map[*analysis.Analyzer][]analysis.ObjectFact
	pkgs map[*analysis.Analyzer][]analysis.PackageFact
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
		mine = &unitFacts{objs: make(map[*analysis.Analyzer][]analysis.ObjectFact), pkgs: make(map[*analysis.Analyzer][]analysis.PackageFact)}
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
		if ok {
			reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(v).Elem())
		}
		return ok
	}
	pass.ExportObjectFact = func(obj types.Object, fact analysis.Fact) {
		if obj.Pkg() != pass.Pkg {
			panic(fmt.Sprintf("analyzer %s exported a fact for %s, which is not in package %s", a.Name, obj, pass.Pkg.Path()))
		}
		s.mu.Lock()
		k := objectKey{a, obj, reflect.TypeOf(fact)}
		if _, again := s.objs[k]; !again {
			mine.objs[a] = append(mine.objs[a], analysis.ObjectFact{Object: obj, Fact: fact})
		} else {
			for i, f := range mine.objs[a] {
				if f.Object == obj && reflect.TypeOf(f.Fact) == k.t {
					mine.objs[a][i].Fact = fact
				}
			}
		}
		s.objs[k] = fact
		s.mu.Unlock()
	}
	pass.ImportPackageFact = func(pkg *types.Package, fact analysis.Fact) bool {
		s.mu.Lock()
		v, ok := s.pkgs[packageKey{a, pkg, reflect.TypeOf(fact)}]
		s.mu.Unlock()
		if ok {
			reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(v).Elem())
		}
		return ok
	}
	pass.ExportPackageFact = func(fact analysis.Fact) {
		s.mu.Lock()
		k := packageKey{a, pass.Pkg, reflect.TypeOf(fact)}
		if _, again := s.pkgs[k]; !again {
			mine.pkgs[a] = append(mine.pkgs[a], analysis.PackageFact{Package: pass.Pkg, Fact: fact})
		} else {
			for i, f := range mine.pkgs[a] {
				if reflect.TypeOf(f.Fact) == k.t {
					mine.pkgs[a][i].Fact = fact
				}
			}
		}
		s.pkgs[k] = fact
		s.mu.Unlock()
	}
	pass.AllObjectFacts = func() []analysis.ObjectFact {
		var out []analysis.ObjectFact
		s.visible(u, units, func(f *unitFacts) { out = append(out, f.objs[a]...) })
		return out
	}
	pass.AllPackageFacts = func() []analysis.PackageFact {
		var out []analysis.PackageFact
		s.visible(u, units, func(f *unitFacts) { out = append(out, f.pkgs[a]...) })
		return out
	}
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
