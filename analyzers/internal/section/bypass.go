package section

import (
	"go/ast"

	"golang.org/x/tools/go/cfg"
)

// Bypassed reports whether the function body can reach the call to from
// its entry without running the call past: past does not dominate to on
// the control-flow graph. Both calls must be in body itself, not in a
// function literal inside it; when either is not found, it reports false.
// mayReturn is the graph's callback (noreturn's Result.MayReturn).
func Bypassed(mayReturn func(*ast.CallExpr) bool, body *ast.BlockStmt, past, to *ast.CallExpr) bool {
	if body == nil {
		return false
	}
	g := cfg.New(body, mayReturn)
	pb, pi := findNode(g, past)
	tb, ti := findNode(g, to)
	if pb == nil || tb == nil || len(g.Blocks) == 0 {
		return false
	}
	if pb == tb {
		// One block runs its nodes in order; within one node, past
		// comes first when it starts first (v := get(); if set() ... ).
		return ti < pi || ti == pi && to.Pos() < past.Pos()
	}
	seen := map[*cfg.Block]bool{pb: true}
	queue := []*cfg.Block{g.Blocks[0]}
	for len(queue) > 0 {
		blk := queue[0]
		queue = queue[1:]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		if blk == tb {
			return true
		}
		queue = append(queue, blk.Succs...)
	}
	return false
}
