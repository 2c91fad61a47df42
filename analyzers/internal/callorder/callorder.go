// Package callorder orders a package's functions for summaries that read
// the summaries of the functions they call.
package callorder

import "go/ast"

// CalleesFirst orders decls so that every function comes after the
// functions of decls it calls (depth-first, post-order; a cycle is cut
// where it is entered). calls lists the functions of decls that fd calls.
// Summarising in this order settles a chain of helpers in one pass,
// however deep it is.
func CalleesFirst(decls []*ast.FuncDecl, calls func(fd *ast.FuncDecl) []*ast.FuncDecl) []*ast.FuncDecl {
	order := make([]*ast.FuncDecl, 0, len(decls))
	seen := make(map[*ast.FuncDecl]bool, len(decls))
	var visit func(fd *ast.FuncDecl)
	visit = func(fd *ast.FuncDecl) {
		if seen[fd] {
			return
		}
		seen[fd] = true
		for _, cd := range calls(fd) {
			visit(cd)
		}
		order = append(order, fd)
	}
	for _, fd := range decls {
		visit(fd)
	}
	return order
}
