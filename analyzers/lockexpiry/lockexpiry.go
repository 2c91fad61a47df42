package lockexpiry

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/docs"
	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/luascript"
)

//go:embed doc.go
var doc string

// Analyzer reports locks taken without an atomic expiry.
var Analyzer = &analysis.Analyzer{
	Name:             "lockexpiry",
	Doc:              docs.Extract(doc, "lockexpiry"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/lockexpiry/doc.go",
	Requires:         []*analysis.Analyzer{lifecycle.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	for _, l := range res.Locks {
		if !l.IsLock(pass) {
			continue // a record, marker or flag written with NX
		}
		for _, acq := range l.Acquires {
			if !acq.NoTTL || acq.Judged || lifecycle.IsTestFile(pass.Fset, acq.Pos()) {
				continue
			}
			if exp := laterExpire(l, acq); exp != nil {
				if atomicTogether(acq, exp) {
					continue
				}
				pass.Report(analysis.Diagnostic{
					Pos: acq.Pos(), End: acq.Call.End(),
					Message: fmt.Sprintf("lock %s is acquired with %s and given its TTL by a separate %s: "+
						"if the process dies between the two, the lock never expires and no one can take it again; "+
						"set the TTL in the acquire (SET NX PX) or use safelock.Locker.TryAcquire",
						acq.KeyText(), acq.Describe(), exp.Describe()),
					Related:        []analysis.RelatedInformation{{Pos: exp.Pos(), End: exp.Call.End(), Message: "separate " + exp.Command}},
					SuggestedFixes: mergeFix(pass, acq, exp),
				})
				continue
			}
			del, none := neverExpires(l, acq)
			if !none || namedForever(acq) {
				continue
			}
			d := analysis.Diagnostic{
				Pos: acq.Pos(), End: acq.Call.End(),
				Message: fmt.Sprintf("lock %s is acquired with %s without a TTL: "+
					"if the holder dies before it releases, the lock is held forever; "+
					"give the acquire a TTL (SET NX PX) or use safelock.Locker.TryAcquire", acq.KeyText(), acq.Describe()),
			}
			switch {
			case del != nil && !expiresNearby(res, l, acq, del):
				d.Related = []analysis.RelatedInformation{{Pos: del.Pos(), End: del.Call.End(), Message: "released here, the only way the lock goes away"}}
			case del == nil && namedLock(pass, res, acq) && !expiresNearby(res, l, acq):
				// Released where we cannot follow the key (a slice of
				// taken keys handed to UnlockKeys): the names say lock.
			default:
				continue
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

// laterExpire returns the EXPIRE that gives the lock its TTL after acq: the
// first one after it in the same function, else one anywhere in the lock.
func laterExpire(l *lifecycle.Lock, acq *lifecycle.Op) *lifecycle.Op {
	var any *lifecycle.Op
	for _, op := range l.Ops {
		if op.Kind != lifecycle.Expire {
			continue
		}
		if op.In.Decl == acq.In.Decl && op.Pos() > acq.Pos() {
			return op
		}
		if any == nil && op.In.Decl != acq.In.Decl {
			any = op
		}
	}
	return any
}

// atomicTogether reports whether both are queued in one MULTI/EXEC.
func atomicTogether(a, b *lifecycle.Op) bool {
	return a.In.Multi && b.In.Multi && a.In.Decl == b.In.Decl && a.In.Lit == b.In.Lit
}

// neverExpires reports whether nothing gives the lock acq takes without a
// TTL one (none), and returns its first release, if any. Judged per
// acquire: another acquire of the same lock with a TTL (the other branch
// of if ttl > 0) does not help this one. Only keys that are released, or
// named as locks, are locks; an NX marker that is never deleted is a
// deduplication record.
func neverExpires(l *lifecycle.Lock, acq *lifecycle.Op) (del *lifecycle.Op, none bool) {
	if !acq.NoTTL {
		return nil, false
	}
	for _, op := range l.Ops {
		switch {
		case op.Kind == lifecycle.Unknown, op.TTL:
			return nil, false
		case op.Kind == lifecycle.Delete && del == nil:
			del = op
		}
	}
	return del, true
}

// namedLock reports whether both the key and the function taking it with
// NX name a lock, and the function reads whether it won: a lock whose
// release we cannot follow, not a marker.
func namedLock(pass *analysis.Pass, res *lifecycle.Result, acq *lifecycle.Op) bool {
	fd := acq.In.Decl
	if fd == nil || acq.Via != nil || lifecycle.OutcomeIgnored(pass, acq) {
		return false
	}
	return strings.Contains(strings.ToLower(fd.Name.Name), "lock") && keyNamesLock(pass, res.Env(fd).Defs, acq)
}

// keyNamesLock reports whether the key's expression, or the single value
// of a local it is held in, mentions a lock (LockKeyPrefix, "lock:").
func keyNamesLock(pass *analysis.Pass, defs *keyexpr.Defs, acq *lifecycle.Op) bool {
	if acq.KeyExpr == nil {
		return false
	}
	found := false
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				found = found || strings.Contains(strings.ToLower(n.Value), "lock")
			case *ast.Ident:
				switch pass.TypesInfo.Uses[n].(type) {
				case *types.Const, *types.Var: // LockKeyPrefix, lockName; not a function's name
					found = found || strings.Contains(strings.ToLower(n.Name), "lock")
				}
				if v, ok := pass.TypesInfo.Uses[n].(*types.Var); ok && depth < 3 {
					if def := defs.Single(v); def != nil {
						visit(def, depth+1)
					}
				}
			}
			return !found
		})
	}
	visit(acq.KeyExpr, 0)
	return found
}

// namedForever reports whether the function taking the lock says in its
// name that the lock never expires (AddLockDisExpire, LockForever): an
// API choice made on purpose, for callers that claim something for good.
func namedForever(acq *lifecycle.Op) bool {
	if acq.In.Decl == nil {
		return false
	}
	name := strings.ToLower(acq.In.Decl.Name.Name)
	for _, w := range []string{"forever", "noexpir", "disexpir", "nottl", "permanent", "persist"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// expiresNearby reports whether the functions of the acquire or the
// release set a TTL, or run a script locklint cannot read, on any key
// other than through an acquire of the lock itself: the expiry may be
// there under a key expression we could not match, so stay silent. A
// script read in full that sets no TTL (a compare-and-delete release)
// is no such place.
func expiresNearby(res *lifecycle.Result, l *lifecycle.Lock, ops ...*lifecycle.Op) bool {
	acquires := map[*ast.CallExpr]bool{}
	for _, a := range l.Acquires {
		acquires[a.Call] = true
	}
	// The kinds of key the lock is (fmt.Sprintf("cron:lock:task:%d", id)):
	// a helper's TTL on a key of another kind (its own "task:exec:"+id
	// with an hour) is not this lock's.
	families := map[string]bool{}
	for _, o := range append(append([]*lifecycle.Op(nil), l.Acquires...), l.Ops...) {
		if f := o.Key.Family(); f != "" {
			families[f] = true
		}
	}
	for _, op := range ops {
		for _, c := range res.Calls[op.In.Decl] {
			if c.Cmd == nil || acquires[c.Call] {
				continue
			}
			if c.Cmd.SetsExpiry() {
				return true
			}
			if c.Cmd.Name == "EVAL" || c.Cmd.Name == "EVALSHA" {
				if c.Cmd.Script == nil || c.Cmd.Partial || scriptSetsTTL(c.Cmd.Script) {
					return true
				}
			}
		}
		for _, o := range res.Funcs[op.In.Decl] {
			if f := o.Key.Family(); f != "" && len(families) > 0 && !families[f] {
				continue
			}
			if o.Via != nil && (o.Kind == lifecycle.Expire || o.TTL || o.Kind == lifecycle.Unknown) && !acquires[o.Call] {
				return true
			}
		}
	}
	return false
}

// scriptSetsTTL reports whether a script gives any key a TTL.
func scriptSetsTTL(s *luascript.Script) bool {
	for _, e := range s.Effects {
		if e.TTL {
			return true
		}
	}
	return false
}

// mergeFix moves the EXPIRE's TTL into a go-redis SetNX(ctx, k, v, 0) and
// deletes the EXPIRE statement, when both are plain statements of one
// function and the TTL expression means the same at the SetNX.
func mergeFix(pass *analysis.Pass, acq, exp *lifecycle.Op) []analysis.SuggestedFix {
	if acq.Cmd == nil || exp.Cmd == nil || acq.In.Decl != exp.In.Decl || exp.Pos() < acq.Pos() {
		return nil
	}
	if !acq.NoTTL || acq.Cmd.Opts.KeepTTL || acq.Cmd.Partial {
		return nil
	}
	// Where the TTL goes: SetNX's expiration argument (the constant 0), or
	// a new TTL field after the last element of a SetArgs literal.
	var ttlEdit func(ttl string) analysis.TextEdit
	switch acq.Cmd.Method.Name() {
	case "SetNX":
		if acq.Cmd.TTL == nil {
			return nil
		}
		ttlEdit = func(ttl string) analysis.TextEdit {
			return analysis.TextEdit{Pos: acq.Cmd.TTL.Pos(), End: acq.Cmd.TTL.End(), NewText: []byte(ttl)}
		}
	case "SetArgs":
		lit, ok := acq.Call.Args[len(acq.Call.Args)-1].(*ast.CompositeLit)
		if !ok || len(lit.Elts) == 0 || acq.Cmd.TTL != nil {
			return nil
		}
		last := lit.Elts[len(lit.Elts)-1]
		ttlEdit = func(ttl string) analysis.TextEdit {
			return analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(", TTL: " + ttl)}
		}
	default:
		return nil
	}
	if name := exp.Cmd.Method.Name(); name != "Expire" && name != "PExpire" || exp.Cmd.Package != acq.Cmd.Package {
		return nil
	}
	stmt := statementOf(acq.In.Decl.Body, exp.Call)
	if stmt == nil || !stableBetween(pass, exp.Cmd.TTL, acq.Pos(), exp.Pos(), acq.In.Decl.Body) {
		return nil
	}
	ttl := fixes.Source(pass, exp.Cmd.TTL)
	del, ok := fixes.DeleteLines(pass, stmt)
	if ttl == "" || !ok {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   "Set the TTL in " + acq.Cmd.Method.Name() + " and drop the separate " + exp.Command,
		TextEdits: []analysis.TextEdit{ttlEdit(ttl), del},
	}}
}

// statementOf returns the expression statement that is exactly call (its
// result discarded), or nil.
func statementOf(body *ast.BlockStmt, call *ast.CallExpr) ast.Stmt {
	var found ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if es, ok := n.(*ast.ExprStmt); ok {
			x := ast.Unparen(es.X)
			// rdb.Expire(...) or rdb.Expire(...).Err()
			if sel, ok := x.(*ast.CallExpr); ok && sel == call {
				found = es
			} else if outer, ok := x.(*ast.CallExpr); ok {
				if s, ok := outer.Fun.(*ast.SelectorExpr); ok && s.X == call && len(outer.Args) == 0 {
					found = es
				}
			}
		}
		return true
	})
	return found
}

// stableBetween reports whether every variable in e is declared before
// from and not assigned between from and to, so e can move to from.
func stableBetween(pass *analysis.Pass, e ast.Expr, from, to token.Pos, body *ast.BlockStmt) bool {
	ok := true
	vars := map[*types.Var]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, isType := pass.TypesInfo.Types[n.Fun]; !isType || !tv.IsType() {
				// A call may have effects or change value; allow only
				// conversions such as time.Duration(n).
				ok = false
			}
		case *ast.Ident:
			if v, isVar := pass.TypesInfo.Uses[n].(*types.Var); isVar {
				if v.Pos() >= from {
					ok = false
				}
				vars[v] = true
			}
		}
		return ok
	})
	if !ok {
		return false
	}
	ast.Inspect(body, func(n ast.Node) bool {
		as, isAssign := n.(*ast.AssignStmt)
		if !isAssign || as.Pos() < from || as.Pos() > to {
			return true
		}
		for _, lhs := range as.Lhs {
			if id, isID := ast.Unparen(lhs).(*ast.Ident); isID {
				if v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var); vars[v] {
					ok = false
				}
			}
		}
		return true
	})
	return ok
}
