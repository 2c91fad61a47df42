package section

import (
	"go/ast"
	"go/types"
)

// Fields records what the package stores in each struct field: keyed and
// positional composite-literal elements and assignments. A field stored
// exactly once (a client or locker set in a constructor) can be seen
// through, like a local assigned once.
type Fields struct {
	defs map[*types.Var][]ast.Expr
}

// NewFields scans files for stores into struct fields.
func NewFields(info *types.Info, files []*ast.File) *Fields {
	f := &Fields{defs: map[*types.Var][]ast.Expr{}}
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				st, ok := typeOf(info, n).(*types.Struct)
				if !ok {
					return true
				}
				for i, elt := range n.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							if v, ok := info.Uses[id].(*types.Var); ok {
								f.defs[v] = append(f.defs[v], kv.Value)
							}
						}
					} else if i < st.NumFields() {
						f.defs[st.Field(i)] = append(f.defs[st.Field(i)], elt)
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
					if !ok {
						continue
					}
					s := info.Selections[sel]
					if s == nil || s.Kind() != types.FieldVal {
						continue
					}
					v := s.Obj().(*types.Var)
					if len(n.Lhs) == len(n.Rhs) {
						f.defs[v] = append(f.defs[v], n.Rhs[i])
					} else {
						f.defs[v] = append(f.defs[v], nil, nil) // multi-value: unknown
					}
				}
			}
			return true
		})
	}
	return f
}

// Single returns the one expression stored in field v, or nil.
func (f *Fields) Single(v *types.Var) ast.Expr {
	if f == nil || len(f.defs[v]) != 1 {
		return nil
	}
	return f.defs[v][0]
}

func typeOf(info *types.Info, lit *ast.CompositeLit) types.Type {
	t := info.TypeOf(lit)
	if t == nil {
		return nil
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return t.Underlying()
}
