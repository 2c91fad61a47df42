package callorder

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func TestCalleesFirst(t *testing.T) {
	src := `package p
func a() { b() }
func b() { c(); a() }
func c() {}
func d() { c() }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*ast.FuncDecl{}
	var decls []*ast.FuncDecl
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		byName[fd.Name.Name] = fd
		decls = append(decls, fd)
	}
	calls := func(fd *ast.FuncDecl) []*ast.FuncDecl {
		var out []*ast.FuncDecl
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && byName[id.Name] != nil {
					out = append(out, byName[id.Name])
				}
			}
			return true
		})
		return out
	}
	var got []string
	for _, fd := range CalleesFirst(decls, calls) {
		got = append(got, fd.Name.Name)
	}
	// c before b before a (the cycle a-b is cut where it is entered, at a);
	// d after c; every function once.
	want := []string{"c", "b", "a", "d"}
	if len(got) != len(want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}
