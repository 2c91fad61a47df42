package lockrenew

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/locklint/locklint/analyzers/internal/docs"
	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/noreturn"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/section"
)

//go:embed doc.go
var doc string

// Analyzer reports lock renewals without an atomic ownership check.
var Analyzer = &analysis.Analyzer{
	Name:             "lockrenew",
	Doc:              docs.Extract(doc, "lockrenew"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/lockrenew/doc.go",
	Requires:         []*analysis.Analyzer{lifecycle.Analyzer, noreturn.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
}

const useInstead = "renew with safelock.RenewKey(ctx, rdb, key, token, ttl) or Lease.Renew, which compare the token and extend in one step"

func run(pass *analysis.Pass) (any, error) {
	lifecycle.SilenceTests(pass)
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	seen := map[token.Pos]bool{}
	for _, l := range res.Locks {
		acq := decides(pass, l)
		if acq == nil || !l.IsLock(pass) {
			continue // nobody reads the NX result: a cache fill or a marker, not a lock
		}
		for _, op := range l.Ops {
			if seen[op.Site.Pos()] {
				continue
			}
			if a := expiresEitherWay(pass, res, l, op); a != nil {
				seen[op.Site.Pos()] = true
				reportEitherWay(pass, l, a, op)
				continue
			}
			what := renewal(pass, res, l, op)
			if what == "" {
				continue
			}
			seen[op.Site.Pos()] = true
			key := op.KeyText()
			d := analysis.Diagnostic{
				Related: []analysis.RelatedInformation{{Pos: acq.Pos(), End: acq.Call.End(), Message: "lock acquired with " + acq.Command + " here"}},
			}
			d.Pos, d.End = op.ReportAt()
			if !op.AtSite() {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: op.Pos(), End: op.Call.End(), Message: "reached from this call of " + lifecycle.FuncName(op.Via)})
			}
			switch {
			case op.ReadBefore != nil:
				d.Message = fmt.Sprintf("lock %s is read with GET and then renewed with a separate %s: "+
					"the lock can expire and pass to another process between the two round trips, and the renewal then extends their lock "+
					"while this holder carries on as if it still owned it; %s", key, what, useInstead)
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: op.ReadBefore.Pos(), End: op.ReadBefore.Call.End(), Message: "GET here, a round trip before the renewal"})
			case op.Command == "EVAL" || op.Command == "EVALSHA":
				d.Message = fmt.Sprintf("the Lua script renews lock %s without comparing its value with the holder's token: "+
					"after the lock expires and another process takes it, this extends their lock and the old holder carries on as if it still owned it; "+
					"compare before extending, as safelock.RenewScript does, or %s", key, useInstead)
			case op.Kind == lifecycle.Write:
				d.Message = fmt.Sprintf("lock %s is renewed with %s, which overwrites the key whoever holds it: "+
					"if the lock expired and another process took it, both now believe they hold it; %s", key, what, useInstead)
			default:
				d.Message = fmt.Sprintf("lock %s is renewed with %s without checking that this holder still owns it: "+
					"if the lock expired and another process took it, this extends their lock and both run the critical section at once; %s",
					key, what, useInstead)
			}
			if op.Direct() && op.ReadBefore == nil && op.Kind == lifecycle.Expire {
				d.SuggestedFixes = renewFix(pass, l, op)
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

// decides returns the first acquire of the lock whose result is read, or
// nil when every NX result is thrown away.
func decides(pass *analysis.Pass, l *lifecycle.Lock) *lifecycle.Op {
	for _, acq := range l.Acquires {
		if !lifecycle.Discarded(pass, acq) {
			return acq
		}
	}
	return nil
}

// renewal describes op when it extends the lock without an owner check
// ("PEXPIRE", "SET XX", "EXPIRE (in locker.touch at touch.go:9)"), or
// returns "".
func renewal(pass *analysis.Pass, res *lifecycle.Result, l *lifecycle.Lock, op *lifecycle.Op) string {
	if op.Checked || op.Judged {
		return ""
	}
	switch op.Kind {
	case lifecycle.Expire:
		if op.Cmd != nil && op.Cmd.Opts.Cond == "NX" {
			return "" // EXPIRE ... NX only sets a missing TTL: lockexpiry's concern
		}
	case lifecycle.Write:
		// SET ... XX with a TTL, or a SET that stores the holder's own
		// token again with a TTL: both re-arm the lock whoever holds it.
		if !op.TTL {
			return ""
		}
		if c := op.Cmd; c != nil {
			if c.Opts.IfEq != nil || c.Partial {
				return ""
			}
			if c.Opts.XX {
				if initialTTL(pass, res, l, op) {
					return ""
				}
				return "SET XX"
			}
		}
		if !sameValue(res, l, op) || initialTTL(pass, res, l, op) {
			return ""
		}
		return op.DescribeAtSite()
	default:
		return ""
	}
	if initialTTL(pass, res, l, op) {
		return ""
	}
	return op.DescribeAtSite()
}

// initialTTL reports whether op belongs to taking the lock rather than to
// holding it: it runs in the same function body as an acquire of the lock
// (SETNX then EXPIRE is lockexpiry's business; an EXPIRE after a failed
// acquire repairs someone else's lock, not a renewal), unless it runs in a
// goroutine or in a loop that does not also acquire, or it follows a GET
// of the lock made after the acquire (acquire-or-renew: the NX failed, the
// value read is the holder's own, so it extends its lease), or follows a
// GET made before the acquire on a path that skips the acquire (GET
// first: the key is there and holds our value, so extend it; else SET NX),
// or runs, without a GET, on a path that skips the acquire (if !leader {
// SET NX } else { PEXPIRE }: it extends what an earlier round took).
func initialTTL(pass *analysis.Pass, res *lifecycle.Result, l *lifecycle.Lock, op *lifecycle.Op) bool {
	for _, acq := range l.Acquires {
		if acq.NoTTL && op.Kind == lifecycle.Expire && acq.In.Decl != op.In.Decl && firstExpire(l, acq) == op {
			return true // the separate EXPIRE lockexpiry reports for acq
		}
		if acq.In.Decl != op.In.Decl || acq.In.Lit != op.In.Lit || op.In.InGo != acq.In.InGo {
			continue
		}
		if r := op.ReadBefore; r != nil && r.In.Decl == acq.In.Decl && !overwrittenBetween(res, l, r, op, acq) &&
			(r.Pos() > acq.Pos() || section.Bypassed(pass.ResultOf[noreturn.Analyzer].(*noreturn.Result).MayReturn, body(op.In), acq.Call, op.Call)) {
			continue
		}
		if loop := enclosingLoop(pass, op); loop != nil && (acq.Pos() < loop.Pos() || acq.Pos() >= loop.End()) {
			continue // renewed again and again while the work goes on
		}
		if op.ReadBefore == nil && section.Bypassed(pass.ResultOf[noreturn.Analyzer].(*noreturn.Result).MayReturn, body(op.In), acq.Call, op.Call) {
			// A path that skips the acquire (if !leader { SET NX } else
			// { PEXPIRE }): the lock was taken by an earlier round or
			// call, and this extends it.
			continue
		}
		return true
	}
	return false
}

// body returns the body of the function c is in: the literal's, else the
// declaration's.
func body(c redismodel.Context) *ast.BlockStmt {
	if c.Lit != nil {
		return c.Lit.Body
	}
	return section.FuncBody(c.Decl)
}

// overwrittenBetween reports whether the lock's key is written (GETSET,
// SET) between the GET read and the EXPIRE op in their function: the
// takeover of an expired timestamp lock (NX failed, GET an old deadline,
// GETSET a new one, EXPIRE), which takes the lock rather than renewing it.
// The acquire acq itself, between a GET made first and the EXPIRE, is no
// such write.
func overwrittenBetween(res *lifecycle.Result, l *lifecycle.Lock, read, op, acq *lifecycle.Op) bool {
	env := res.Env(op.In.Decl)
	for _, c := range res.Calls[op.In.Decl] {
		if c.Cmd == nil || c.Cmd.Name != "GETSET" && c.Cmd.Name != "SET" || c.Call.Pos() <= read.Pos() || c.Call.Pos() >= op.Pos() || c.Call == acq.Call {
			continue
		}
		if k := c.Cmd.Key(); k != nil && keyexpr.Same(env.Of(k), l.Key, true) || k != nil && keyexpr.Same(env.Of(k), read.Key, true) {
			return true
		}
	}
	return false
}

// firstExpire mirrors lockexpiry: the EXPIRE of the lock in another
// function that gives a TTL-less acquire its expiry.
func firstExpire(l *lifecycle.Lock, acq *lifecycle.Op) *lifecycle.Op {
	for _, op := range l.Ops {
		if op.Kind == lifecycle.Expire && op.In.Decl == acq.In.Decl && op.Pos() > acq.Pos() {
			return nil
		}
	}
	for _, op := range l.Ops {
		if op.Kind == lifecycle.Expire && op.In.Decl != acq.In.Decl {
			return op
		}
	}
	return nil
}

// enclosingLoop returns the innermost for or range statement around op
// within its function literal or declaration, or nil.
func enclosingLoop(pass *analysis.Pass, op *lifecycle.Op) ast.Node {
	file := fixes.File(pass, op.Pos())
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, op.Call.Pos(), op.Call.End())
	for _, n := range path {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return n
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		}
	}
	return nil
}

// sameValue reports whether a SET stores the value an acquire of the lock
// stored: the holder writing its own token again.
func sameValue(res *lifecycle.Result, l *lifecycle.Lock, op *lifecycle.Op) bool {
	if op.Value == nil {
		return false
	}
	v := res.Env(op.In.Decl).Of(op.Value)
	for _, acq := range l.Acquires {
		if acq.Value == nil {
			continue
		}
		if keyexpr.Same(res.Env(acq.In.Decl).Of(acq.Value), v, acq.In.Decl == op.In.Decl) {
			return true
		}
	}
	return false
}
