package locklease

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/section"
)

// lostBranchSilent reports whether ifs tests the renewal's error against
// a lock library's "not held" error (err == redislock.ErrNotObtained,
// errors.Is(err, redsync.ErrExtendFailed)) and that branch, the one for
// a lost lock, tells nobody: it logs, goes on, or leaves the keep-alive
// loop or function with nothing after it that signals. Another branch of
// the chain that exits on a Redis error does not tell of the loss.
func lostBranchSilent(pass *analysis.Pass, body *ast.BlockStmt, path []ast.Node, ifs *ast.IfStmt, vars map[types.Object]bool) bool {
	if !lostTest(pass.TypesInfo, ifs.Cond, vars) || signals(pass, ifs.Body) {
		return false
	}
	if section.Returns(ifs.Body) && (deferSignals(pass, body) || callersHearReturn(pass, path)) {
		return false
	}
	if br := loopBreak(ifs.Body); br != nil {
		loop, rest := brokenLoop(pass, br)
		if loop == nil {
			return false // a labelled break or one we cannot place: stay silent
		}
		for _, st := range rest {
			if signals(pass, st) {
				return false // the code after the loop tells the holder
			}
		}
		if deferSignals(pass, body) || callersHearReturn(pass, path) {
			return false
		}
	}
	return true
}

// lostTest reports whether cond compares one of vars with a package
// error variable named as a lock that is not held (ErrNotObtained,
// ErrExtendFailed, ErrLockNotHeld, ErrNotLocked, ErrLeaseLost).
func lostTest(info *types.Info, cond ast.Expr, vars map[types.Object]bool) bool {
	switch e := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if e.Op != token.EQL {
			return false
		}
		return section.Mentions(info, e.X, vars) && lostSentinel(info, e.Y) || section.Mentions(info, e.Y, vars) && lostSentinel(info, e.X)
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, e).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "errors" || fn.Name() != "Is" || len(e.Args) != 2 {
			return false
		}
		return section.Mentions(info, e.Args[0], vars) && lostSentinel(info, e.Args[1])
	}
	return false
}

func lostSentinel(info *types.Info, e ast.Expr) bool {
	v := keyexpr.VarOf(info, e)
	if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	name := strings.ToLower(v.Name())
	for _, w := range []string{"notobtained", "extendfailed", "notheld", "notlocked", "leaselost", "locklost", "notowner", "alreadyexpired"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// loopBreak returns an unlabelled break of body that is not inside a
// loop, switch or select of its own, or nil.
func loopBreak(body *ast.BlockStmt) *ast.BranchStmt {
	var found *ast.BranchStmt
	ast.Inspect(body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.BREAK && n.Label == nil {
				found = n
			}
		}
		return true
	})
	return found
}

// brokenLoop returns the loop br leaves and the statements after it in
// its block; nil when br leaves a switch or select instead (the keep-alive
// goes on) or the loop cannot be placed.
func brokenLoop(pass *analysis.Pass, br *ast.BranchStmt) (ast.Stmt, []ast.Stmt) {
	file := fixes.File(pass, br.Pos())
	if file == nil {
		return nil, nil
	}
	path, _ := astutil.PathEnclosingInterval(file, br.Pos(), br.End())
	for i, n := range path {
		switch n := n.(type) {
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncLit, *ast.FuncDecl:
			return nil, nil
		case *ast.ForStmt, *ast.RangeStmt:
			loop := n.(ast.Stmt)
			if i+1 < len(path) {
				if blk, ok := path[i+1].(*ast.BlockStmt); ok {
					for j, st := range blk.List {
						if st == loop {
							return loop, blk.List[j+1:]
						}
					}
				}
			}
			return nil, nil
		}
	}
	return nil, nil
}
