package lockrenew

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/section"
)

// expiresEitherWay returns the acquire of l after which op, an EXPIRE of
// the lock in the same function, runs whatever the acquire answered: no
// test of the acquire's reply comes between them or around op (SETNX,
// EXPIRE, then return the reply; SETNX and EXPIRE in one MULTI). When
// the NX failed, that EXPIRE re-arms the current holder's lock, and a
// holder that died keeps its lock for as long as others keep trying.
// A test of the reply that only looks at its error does not count; a
// function that reads a TTL (the repair of a key left without one) is
// left alone, and so is anything less plain: silence when in doubt.
func expiresEitherWay(pass *analysis.Pass, res *lifecycle.Result, l *lifecycle.Lock, op *lifecycle.Op) *lifecycle.Op {
	if op.Kind != lifecycle.Expire || op.Checked || op.Judged || op.ReadBefore != nil || op.In.InGo || op.In.Decl == nil {
		return nil
	}
	if c := op.Cmd; c != nil && (c.Opts.Cond == "NX" || c.Partial) {
		return nil // EXPIRE ... NX sets only a missing TTL
	}
	for _, c := range res.Calls[op.In.Decl] {
		if c.Cmd != nil && (c.Cmd.Name == "TTL" || c.Cmd.Name == "PTTL") {
			return nil
		}
	}
	for _, acq := range l.Acquires {
		if acq.In.Decl != op.In.Decl || acq.In.Lit != op.In.Lit || acq.In.InGo || acq.Pos() >= op.Pos() || lifecycle.Discarded(pass, acq) {
			continue
		}
		if loop := enclosingLoop(pass, op); loop != nil && (acq.Pos() < loop.Pos() || acq.Pos() >= loop.End()) {
			continue // a renewal loop: renewal's business
		}
		if !testedBefore(pass, acq, op, refusedByError(acq)) {
			return acq
		}
	}
	return nil
}

// refusedByError reports whether a refused acq may answer with an error
// rather than with its reply: SET NX sent through SetArgs or Do answers
// nil (go-redis's redis.Nil, redigo's ErrNil once converted). SETNX, an
// INCR and go-redis's SetNX answer 0 or false.
func refusedByError(acq *lifecycle.Op) bool {
	switch {
	case acq.Command == "SETNX" || acq.Command == "INCR":
		return false
	case acq.Cmd != nil && acq.Cmd.Method != nil && acq.Cmd.Method.Name() == "SetNX":
		return false
	}
	return true
}

// testedBefore reports whether the reply of acq (the call itself, or a
// variable derived from it; an error only when errorTells) is tested by
// a condition between acq and op, or by a condition around op.
func testedBefore(pass *analysis.Pass, acq, op *lifecycle.Op, errorTells bool) bool {
	root := body(op.In)
	if root == nil {
		return true
	}
	// A reply written through a pointer (radix.Cmd(&n, "SETNX", ...)) is
	// the acquire's as well.
	var into []types.Object
	ast.Inspect(acq.Call, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && pass.TypesInfo.Uses[id] != nil {
				into = append(into, pass.TypesInfo.Uses[id])
			}
		}
		return true
	})
	flow := section.NewFlowSeeded(pass.TypesInfo, root, func(c *ast.CallExpr) bool { return c == acq.Call }, into...)
	mentions := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if n == acq.Call {
					found = true
				}
			case *ast.Ident:
				if v, ok := pass.TypesInfo.Uses[n].(*types.Var); ok && flow.Reaches(n) && (errorTells || !isError(v.Type())) {
					found = true
				}
			case *ast.FuncLit:
				return false
			}
			return !found
		})
		return found
	}
	tested := false
	ast.Inspect(root, func(n ast.Node) bool {
		if tested || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		around := n.Pos() <= op.Pos() && op.Pos() < n.End()
		between := n.Pos() > acq.Pos() && n.Pos() < op.Pos()
		if !around && !between && n != root {
			// Only the acquire's own statement (an if whose init takes the
			// lock) is looked into besides these.
			if n.Pos() > acq.Pos() || acq.Pos() >= n.End() {
				return false
			}
		}
		var conds []ast.Expr
		switch n := n.(type) {
		case *ast.IfStmt:
			conds = append(conds, n.Cond)
		case *ast.ForStmt:
			conds = append(conds, n.Cond)
		case *ast.SwitchStmt:
			conds = append(conds, n.Tag)
		case *ast.CaseClause:
			conds = append(conds, n.List...)
		case *ast.TypeSwitchStmt:
			if a, ok := n.Assign.(*ast.AssignStmt); ok {
				conds = append(conds, a.Rhs...)
			} else if e, ok := n.Assign.(*ast.ExprStmt); ok {
				conds = append(conds, e.X)
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				conds = append(conds, n.X)
			}
		}
		for _, c := range conds {
			if c != nil && mentions(c) {
				tested = true
			}
		}
		return !tested
	})
	return tested
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func reportEitherWay(pass *analysis.Pass, l *lifecycle.Lock, acq, op *lifecycle.Op) {
	d := analysis.Diagnostic{
		Message: fmt.Sprintf("%s of lock %s runs whether or not the %s took the lock: when another process holds it, "+
			"this re-arms their lock, so a holder that died keeps the lock for as long as others keep trying; "+
			"take the lock with SET NX and a TTL in one command and extend only after checking the holder's token, "+
			"as safelock.RenewKey does", op.DescribeAtSite(), op.KeyText(), acq.Command),
		Related: []analysis.RelatedInformation{{Pos: acq.Pos(), End: acq.Call.End(), Message: "lock acquired with " + acq.Command + " here, its reply not tested before the " + op.Command}},
	}
	d.Pos, d.End = op.ReportAt()
	if !op.AtSite() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: op.Pos(), End: op.Call.End(), Message: "reached from this call of " + lifecycle.FuncName(op.Via)})
	}
	pass.Report(d)
}
