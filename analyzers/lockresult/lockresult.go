package lockresult

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/docs"
	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/noreturn"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/soleimpl"
)

//go:embed doc.go
var doc string

// Analyzer reports lock acquires whose outcome is ignored.
var Analyzer = &analysis.Analyzer{
	Name:             "lockresult",
	Doc:              docs.Extract(doc, "lockresult"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/lockresult/doc.go",
	Requires:         []*analysis.Analyzer{lifecycle.Analyzer, noreturn.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{new(AcquireFact)},
}

const instead = "safelock.Locker.TryAcquire, which returns ErrNotAcquired when another owner holds the lock"

func run(pass *analysis.Pass) (any, error) {
	lifecycle.SilenceTests(pass)
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	r := &runner{pass: pass, res: res, exits: pass.ResultOf[noreturn.Analyzer].(*noreturn.Result), cfgs: map[ast.Node]*cfg.CFG{}, cases: map[*ast.CaseClause]*ast.SwitchStmt{}, facts: map[*types.Func]*AcquireFact{}}
	if len(res.Calls) == 0 && !locklib.UsesLib(pass.Pkg, pass.TypesInfo) {
		// No Redis here, but a lock behind another package's interface
		// can still be misread.
		r.each(func(_ *ast.File, fd *ast.FuncDecl) { r.failOpen(fd) })
		if r.callsPorts() {
			// A lock behind an interface implemented elsewhere (a
			// domain port), known only by its name and results.
			r.indexCases()
			r.report = true
			r.each(r.portCalls)
		}
		return nil, nil
	}
	r.indexCases()
	// Summaries first: functions that return an acquire's outcome, and
	// wrappers of those, so callers in this package see them too.
	for round := 0; round < 3; round++ {
		r.report = false
		before := len(r.facts)
		r.each(func(f *ast.File, fd *ast.FuncDecl) { r.funcDecl(f, fd) })
		if len(r.facts) == before {
			break
		}
	}
	r.report = true
	r.each(func(f *ast.File, fd *ast.FuncDecl) { r.funcDecl(f, fd) })
	r.each(func(_ *ast.File, fd *ast.FuncDecl) { r.misreads(fd) })
	for fn, f := range r.facts {
		pass.ExportObjectFact(fn, f)
	}
	// A call through the package's interface reaches its implementation
	// (as lifecycle reads it): other packages see the same summary there.
	acquires := map[*types.TypeName]bool{}
	for fn := range r.facts {
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			if n, ok := types.Unalias(derefType(recv.Type())).(*types.Named); ok {
				acquires[n.Obj()] = true
			}
		}
	}
	for m, impl := range soleimpl.Methods(pass.Pkg, func(tn *types.TypeName) bool { return acquires[tn] }) {
		if f := r.facts[impl]; f != nil && m.Pkg() == pass.Pkg {
			pass.ExportObjectFact(m, f)
		}
	}
	return nil, nil
}

func derefType(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

type runner struct {
	pass   *analysis.Pass
	report bool // false while facts are computed
	facts  map[*types.Func]*AcquireFact
	res    *lifecycle.Result
	cfgs   map[ast.Node]*cfg.CFG // per function body, built on demand
	cases  map[*ast.CaseClause]*ast.SwitchStmt
	exits  *noreturn.Result
	decls  map[*types.Func]*ast.FuncDecl // this package's, built on demand (declOf)
}

// indexCases records the switch statement of every case clause.
func (r *runner) indexCases() {
	for _, f := range r.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if sw, ok := n.(*ast.SwitchStmt); ok {
				for _, c := range sw.Body.List {
					r.cases[c.(*ast.CaseClause)] = sw
				}
			}
			return true
		})
	}
}

func (r *runner) each(fn func(*ast.File, *ast.FuncDecl)) {
	for _, f := range r.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				fn(f, fd)
			}
		}
	}
}

func (r *runner) funcDecl(file *ast.File, fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	seen := map[*ast.CallExpr]bool{}
	for _, c := range r.res.Calls[fd] {
		if c.Cmd == nil {
			continue
		}
		a := rawAcquire(info, c.Cmd)
		if a == nil {
			continue
		}
		op := r.acquireOp(fd, c.Call)
		if op == nil || op.Judged {
			continue
		}
		a.unjudged = !lockish(op, fd)
		seen[c.Call] = true
		r.check(file, fd, a, op)
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || seen[call] {
			return true
		}
		if a := libAcquire(info, call); a != nil {
			r.check(file, fd, a, nil)
		} else if a := r.wrapperAcquire(fd, call); a != nil {
			r.check(file, fd, a, nil)
		} else if a := sentinelAcquire(info, fd, call); a != nil {
			r.check(file, fd, a, nil)
		} else if a := r.portAcquire(call); a != nil {
			r.check(file, fd, a, nil)
		}
		return true
	})
}

func (r *runner) acquireOp(fd *ast.FuncDecl, call *ast.CallExpr) *lifecycle.Op {
	for _, op := range r.res.Funcs[fd] {
		if op.Call == call && op.Kind == lifecycle.Acquire {
			return op
		}
	}
	return nil
}

// lockish reports whether an NX acquire takes a lock: it looks like one
// (lockLike) or its lock is named as one.
func lockish(op *lifecycle.Op, fd *ast.FuncDecl) bool {
	return lockLike(op, fd) || op.Lock() != nil && op.Lock().LockNamed()
}

// lockLike reports whether an NX acquire takes a lock rather than
// writing a set-once value (a cache fill, a flag, a one-time code): its
// key or function is named like a lock, the key is released with an owner
// check, the lock API takes the key as a parameter (Lock/Unlock methods),
// or the same function deletes the key after taking it, unless its name
// says it records something done or scheduled (lifecycle's RecordNamed).
func lockLike(op *lifecycle.Op, fd *ast.FuncDecl) bool {
	key := strings.ToLower(op.Key.String())
	for _, w := range []string{"lock", "mutex", "mtx"} {
		if strings.Contains(key, w) {
			return true
		}
	}
	name := strings.ToLower(fd.Name.Name)
	for _, w := range []string{"lock", "acquire", "mutex", "obtain"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	l := op.Lock()
	if l == nil {
		return false
	}
	if l.ByParam {
		return true
	}
	if overwritten(op, l, fd) || l.RecordNamed() {
		return false
	}
	for _, o := range l.Ops {
		switch {
		case (o.Kind == lifecycle.Delete || o.Kind == lifecycle.Expire) && o.Checked:
			return true
		case o.Kind == lifecycle.Delete && isDel(o) && o.In.Decl == fd && o.Pos() > op.Pos():
			return true
		}
	}
	return false
}

// overwritten reports whether fd, after taking the key with NX, stores
// another value in it with a plain SET: a record that moves from "pending"
// to its result (an idempotency record), not a lock, whose holder never
// replaces its own token with something else.
func overwritten(op *lifecycle.Op, l *lifecycle.Lock, fd *ast.FuncDecl) bool {
	if op.Value == nil {
		return false
	}
	for _, o := range l.Ops {
		if o.Kind == lifecycle.Write && o.In.Decl == fd && o.Pos() > op.Pos() && o.Value != nil &&
			types.ExprString(o.Value) != types.ExprString(op.Value) {
			return true
		}
	}
	return false
}

// isDel reports whether a delete is a plain DEL or UNLINK (not GETDEL,
// which reads the value it removes).
func isDel(o *lifecycle.Op) bool {
	return o.Command == "DEL" || o.Command == "UNLINK"
}

func (r *runner) check(file *ast.File, fd *ast.FuncDecl, a *acquire, op *lifecycle.Op) {
	info := r.pass.TypesInfo
	var out outcome
	if a.cmd != nil && a.cmd.Client == redismodel.Radix {
		// The reply is in the action's receiver; only a dropped one is
		// judged (what is done with a reply read into a variable is not
		// followed yet).
		if op == nil || !lifecycle.RadixReplyDropped(r.pass, op) {
			return
		}
		out.verdict = errOnly
		if lifecycle.Discarded(r.pass, op) {
			out.verdict = discarded
		}
	} else if a.cmd != nil && a.cmd.Client == redismodel.RadixV2 {
		if out.verdict = radixV2Outcome(info, fd, a.call); out.verdict == unknown {
			return
		}
	} else {
		out = outcomeOf(info, file, fd, a)
	}
	if out.verdict == returned {
		if fn, ok := info.Defs[fd.Name].(*types.Func); ok && r.facts[fn] == nil {
			out.fact.Via = r.where(a)
			out.fact.Unjudged = a.unjudged
			r.facts[fn] = out.fact
		}
		return
	}
	if !a.unjudged {
		if fn, ok := info.Defs[fd.Name].(*types.Func); ok && r.facts[fn] == nil {
			if f := emptyTokenFact(info, fd, a); f != nil {
				f.Via = r.where(a)
				r.facts[fn] = f
			}
		}
	}
	if !r.report || a.unjudged {
		return
	}
	if a.emptyToken && out.verdict == checked && out.handle.v != nil && !tokenLooked(info, fd.Body, out.handle.v) {
		out.verdict = errOnly // the token is used, never looked at
	}
	what := a.name
	if op != nil {
		what = fmt.Sprintf("%s of %s", a.name, op.KeyText())
	}
	if (out.verdict == discarded || out.verdict == errOnly) && r.readBack(fd, op) {
		return
	}
	switch out.verdict {
	case discarded:
		if r.keptByHelper(fd, a) {
			return
		}
		msg := fmt.Sprintf("the result of %s is discarded: the code goes on whether or not it got the lock", what)
		if a.lib {
			msg = fmt.Sprintf("the error of %s is discarded: when the lock is held elsewhere or Redis fails, the code goes on without the lock; check the error and stop on failure%s", what, libHint(a))
		} else if a.signal == byValue {
			msg += " (a lock held by someone else comes back as " + heldAs(a) + " with a nil error)"
		}
		if !a.lib {
			msg += "; check it, or use " + instead
		}
		r.pass.Report(analysis.Diagnostic{Pos: a.call.Pos(), End: a.call.End(), Message: msg})
		return
	case errOnly:
		r.pass.Report(analysis.Diagnostic{
			Pos: a.call.Pos(), End: a.call.End(),
			Message: fmt.Sprintf("only the error of %s is checked: a lock held by someone else comes back as %s with a nil error, so this code goes on without the lock; %s, or use %s",
				what, heldAs(a), checkHint(a), instead),
		})
		return
	case checked:
	default:
		return
	}
	if !r.looked(fd, out, a) {
		return
	}
	if a.lib && out.err.v != nil {
		if sentinel := sentinelOnly(r.pass.TypesInfo, fd.Body, out.err.v); sentinel != nil {
			r.pass.Report(analysis.Diagnostic{
				Pos: a.call.Pos(), End: a.call.End(),
				Message: fmt.Sprintf("only %s is treated as a failure of %s: any other error (Redis unreachable, a timeout) falls through into the code that needs the lock, without it; stop on every error (if err != nil)%s",
					types.ExprString(sentinel), a.name, libHint(a)),
				Related: []analysis.RelatedInformation{{Pos: sentinel.Pos(), End: sentinel.End(), Message: "the only error tested"}},
			})
			return
		}
	}
	r.paths(fd, a, op, out, what)
}

// sentinelOnly returns the error value err is compared with when every
// test of err in body is a comparison with a specific error (err ==
// redislock.ErrNotObtained, errors.Is(err, X)) and none with nil: other
// errors pass as success. nil otherwise.
func sentinelOnly(info *types.Info, body *ast.BlockStmt, err *types.Var) ast.Expr {
	var sentinel ast.Expr
	other := false
	var visit func(n ast.Node, quiet bool) bool
	isErr := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == err
	}
	isNil := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && tv.IsNil()
	}
	// sentinelTest reports whether cond is err == X or errors.Is(err, X).
	sentinelTest := func(cond ast.Expr) bool {
		switch c := ast.Unparen(cond).(type) {
		case *ast.BinaryExpr:
			return c.Op == token.EQL && (isErr(c.X) && !isNil(c.Y) || isErr(c.Y) && !isNil(c.X))
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(info, c).(*types.Func)
			return ok && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && len(c.Args) == 2 && isErr(c.Args[0])
		}
		return false
	}
	inSentinel := map[ast.Node]bool{} // bodies of if err == X { ... }: returning err there is that failure
	stops := true                     // every sentinel branch leaves (else it falls through: paths reports that)
	ast.Inspect(body, func(n ast.Node) bool {
		if ifs, ok := n.(*ast.IfStmt); ok && sentinelTest(ifs.Cond) {
			inSentinel[ifs.Body] = true
			if k := len(ifs.Body.List); k == 0 {
				stops = false
			} else {
				switch ifs.Body.List[k-1].(type) {
				case *ast.ReturnStmt, *ast.BranchStmt:
				default:
					stops = false
				}
			}
		}
		return true
	})
	var walk func(n ast.Node, quiet bool)
	walk = func(root ast.Node, quiet bool) {
		ast.Inspect(root, func(n ast.Node) bool {
			if n != root && inSentinel[n] {
				walk(n, true)
				return false
			}
			return visit(n, quiet)
		})
	}
	visit = func(n ast.Node, quiet bool) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return true
			}
			for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
				if !isErr(pair[0]) {
					continue
				}
				if isNil(pair[1]) || n.Op == token.NEQ {
					other = true
				} else if sentinel == nil {
					sentinel = pair[1]
				}
			}
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && (fn.Name() == "Is" || fn.Name() == "As") && len(n.Args) == 2 && isErr(n.Args[0]) {
				if sentinel == nil {
					sentinel = n.Args[1]
				}
				return false
			}
			for _, a := range n.Args {
				if isErr(a) && !quiet {
					other = true // handed to a function that may stop on it
				}
			}
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if isErr(e) && !quiet {
					other = true
				}
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && isErr(n.Tag) {
				other = true // switch err { ... default: } may handle the rest
			}
		}
		return true
	}
	walk(body, false)
	if other || !stops {
		return nil
	}
	return sentinel
}

// looked reports whether the value of a checked outcome is looked at; if
// not, it reports the acquire and returns false.
func (r *runner) looked(fd *ast.FuncDecl, out outcome, a *acquire) bool {
	info := r.pass.TypesInfo
	if out.errDiscarded {
		if !comparedWithNil(info, fd.Body, out.handle.v) {
			r.pass.Report(analysis.Diagnostic{
				Pos: a.call.Pos(), End: a.call.End(),
				Message: fmt.Sprintf("the error of %s is discarded and the lock it returns is never checked for nil: when the lock is held elsewhere the code goes on without it (and a nil lock panics on Release); check the error and stop on failure%s", a.name, libHint(a)),
			})
			return false
		}
		return true
	}
	if a.signal != byValue || a.lib {
		return true
	}
	v := out.ok.v
	if v == nil {
		v = out.reply.v
	}
	if v == nil || !onlyLogged(info, fd.Body, v) {
		return true
	}
	r.pass.Report(analysis.Diagnostic{
		Pos: a.call.Pos(), End: a.call.End(),
		Message: fmt.Sprintf("the outcome of %s is only logged, never checked: a lock held by someone else comes back as %s with a nil error, so this code goes on without the lock; %s, or use %s",
			a.name, heldAs(a), checkHint(a), instead),
	})
	return false
}

// paths looks for failure branches that run the critical section.
func (r *runner) paths(fd *ast.FuncDecl, a *acquire, op *lifecycle.Op, out outcome, what string) {
	info := r.pass.TypesInfo
	g := r.cfgOf(fd, a.call)
	if g == nil {
		return
	}
	f := &flow{info: info, g: g, out: out, a: a, cases: r.cases, kills: map[*types.Var]bool{}}
	if op != nil {
		for _, o := range r.res.Funcs[fd] {
			if o.Kind == lifecycle.Delete && o.Lock() != nil && o.Lock() == op.Lock() {
				f.releases = append(f.releases, o.Pos())
			}
		}
	}
	for _, o := range []operand{out.ok, out.reply, out.handle, out.err} {
		if o.v != nil {
			f.kills[o.v] = true
		}
	}
	// A failure path that reaches an unchecked DEL of the lock is not
	// reported here: lockrelease reports that DEL on the same line, and
	// its compare-and-delete fix makes a release on failure harmless.
	var falls []analysis.Diagnostic
	var into []fallInto // the branches that fall into the section
	reached := f.reached(a.call)
	for _, b := range g.Blocks {
		edge, tested := f.failEdge(b)
		if edge < 0 || !b.Live || !reached[b] {
			continue
		}
		cond := b.Nodes[len(b.Nodes)-1]
		if cond.End() <= a.call.Pos() {
			continue // a retry loop's condition before the acquire
		}
		if set := r.grantsOnError(b, edge, tested, out); set != nil {
			falls = append(falls, analysis.Diagnostic{
				Pos: a.call.Pos(), End: a.call.End(),
				Message: fmt.Sprintf("when %s fails with an error (%s), %s: the code that tests it runs the critical section without the lock, "+
					"and while Redis is down every caller does at once; treat the error as a refusal (or return it)%s",
					what, fixes.Source(r.pass, cond), fixes.Source(r.pass, set), useInstead(a)),
				Related: []analysis.RelatedInformation{{Pos: set.Pos(), End: set.End(), Message: "the failure counted as acquired"}},
			})
			continue
		}
		join := r.fallThroughJoin(g, f, b.Succs[edge])
		var let ast.Expr // the refusal sentinel a guard lets through
		if join == nil && edge == 1 && a.signal == byError {
			join, let = passedGuard(info, b)
		}
		if let != nil {
			// A refusal that goes on to read the key back and compare it
			// with this holder's value (a leader renewing what it already
			// holds) checks the outcome there.
			if call := f.search(b, edge, tested, join); call != nil && !r.readBack(fd, op) {
				falls = append(falls, analysis.Diagnostic{
					Pos: cond.Pos(), End: cond.End(),
					Message: fmt.Sprintf("when the lock is held elsewhere, %s fails with %s, which this test lets through (%s): the code after it needs the lock and %s runs without it; stop on that error too (if err != nil)%s",
						what, fixes.Source(r.pass, let), fixes.Source(r.pass, cond), shortCall(r.pass, call), useInstead(a)),
					Related: []analysis.RelatedInformation{
						{Pos: a.call.Pos(), End: a.call.End(), Message: "the acquire"},
						{Pos: call.Pos(), End: call.End(), Message: "runs without the lock"},
					},
				})
			}
		} else if ret := r.answersHeld(fd, f, b.Succs[edge], join); ret != nil {
			falls = append(falls, analysis.Diagnostic{
				Pos: cond.Pos(), End: cond.End(),
				Message: fmt.Sprintf("when %s fails (%s), this branch falls through to %s: %s tells its callers it holds the lock when it does not, and they run their section without it; return the failure (an error, or false)%s",
					what, fixes.Source(r.pass, cond), fixes.Source(r.pass, ret), fd.Name.Name, useInstead(a)),
				Related: []analysis.RelatedInformation{
					{Pos: a.call.Pos(), End: a.call.End(), Message: "the acquire"},
					{Pos: ret.Pos(), End: ret.End(), Message: "answers that the lock is held"},
				},
			})
		} else if call := f.search(b, edge, tested, join); call != nil {
			into = append(into, fallInto{cond: cond, call: call, err: tested == failErr})
			falls = append(falls, analysis.Diagnostic{
				Pos: cond.Pos(), End: cond.End(),
				Message: fmt.Sprintf("when %s fails (%s), this branch falls through into the code that needs the lock: %s runs without it; stop on failure (return, continue)%s",
					what, fixes.Source(r.pass, cond), shortCall(r.pass, call), useInstead(a)),
				Related: []analysis.RelatedInformation{
					{Pos: a.call.Pos(), End: a.call.End(), Message: "the acquire"},
					{Pos: call.Pos(), End: call.End(), Message: "runs without the lock"},
				},
			})
		} else if is, fail := failBranch(b, edge); tested == failErr && fail != nil {
			if call := runsAnyway(info, fileOf(r.pass, fd), is, fail); call != nil {
				falls = append(falls, analysis.Diagnostic{
					Pos: cond.Pos(), End: cond.End(),
					Message: fmt.Sprintf("when %s fails (%s), this branch still runs %s, the work the lock guards on success, without the lock: "+
						"a Redis error lets every caller in at once; answer with an error (for a request, 503) and return, or use %s",
						what, fixes.Source(r.pass, cond), shortCall(r.pass, call), instead),
					Related: []analysis.RelatedInformation{
						{Pos: a.call.Pos(), End: a.call.End(), Message: "the acquire"},
						{Pos: call.Pos(), End: call.End(), Message: "runs without the lock"},
					},
				})
			}
		}
	}
	if len(into) > 1 {
		// Several failure tests only log (if err != nil { log } else if
		// !ok { log }): one finding, the acquire's outcome acted on
		// nowhere, reported once, at the acquire.
		falls = slices.DeleteFunc(falls, func(d analysis.Diagnostic) bool {
			return slices.ContainsFunc(into, func(b fallInto) bool { return b.cond.Pos() == d.Pos })
		})
		var tests []string
		related := []analysis.RelatedInformation{}
		for _, b := range into {
			kind := "the refusal"
			if b.err {
				kind = "the error"
			}
			tests = append(tests, fmt.Sprintf("%s (%s)", kind, fixes.Source(r.pass, b.cond)))
			related = append(related, analysis.RelatedInformation{Pos: b.cond.Pos(), End: b.cond.End(), Message: "falls through"})
		}
		call := into[0].call
		related = append(related, analysis.RelatedInformation{Pos: call.Pos(), End: call.End(), Message: "runs without the lock"})
		falls = append(falls, analysis.Diagnostic{
			Pos: a.call.Pos(), End: a.call.End(),
			Message: fmt.Sprintf("when %s fails, %s only fall through into the code that needs the lock: %s runs without it; stop on failure (return, continue)%s",
				what, joinAnd(tests), shortCall(r.pass, call), useInstead(a)),
			Related: related,
		})
	}
	for _, d := range falls {
		r.pass.Report(d)
	}
}

// fallInto is a failure branch that falls through into the section: its
// test, the first call it reaches that needs the lock, and whether it
// tests the acquire's error (not its refusal).
type fallInto struct {
	cond, call ast.Node
	err        bool
}

// joinAnd joins "a", "b" and "c" as "a, b and c".
func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// passedGuard returns the block after a guard that leaves (if err != nil
// && err != redislock.ErrNotObtained { return err }) when its condition
// excludes a refusal sentinel, and that sentinel: the refused acquire
// passes the guard into the code after it. nil, nil otherwise.
func passedGuard(info *types.Info, b *cfg.Block) (*cfg.Block, ast.Expr) {
	then, done := b.Succs[0], b.Succs[1]
	is, ok := then.Stmt.(*ast.IfStmt)
	if then.Kind != cfg.KindIfThen || done.Kind != cfg.KindIfDone || !ok || is.Else != nil || len(is.Body.List) == 0 {
		return nil, nil
	}
	switch last := is.Body.List[len(is.Body.List)-1].(type) {
	case *ast.ReturnStmt:
	case *ast.BranchStmt:
		if last.Tok != token.CONTINUE && last.Tok != token.BREAK {
			return nil, nil
		}
	default:
		return nil, nil
	}
	var let ast.Expr
	ast.Inspect(is.Cond, func(n ast.Node) bool {
		if be, ok := n.(*ast.BinaryExpr); ok && be.Op == token.NEQ && let == nil {
			for _, side := range []ast.Expr{be.X, be.Y} {
				if refusalSentinel(info, side) {
					let = side
				}
			}
		}
		return let == nil
	})
	if let == nil {
		return nil, nil
	}
	return done, let
}

// fallThroughJoin returns the block after an if statement whose then
// branch is the failure branch and changes no state (only logs): if that
// branch falls through, the code after the if is the critical section.
// An else is allowed only when it is one more failure test with no else
// of its own (if err == ErrNotObtained { log } else if err != nil {
// return }): then the code after the if still runs only on success or on
// the logged failure; or when it only logs too (if err != nil { log }
// else { log "took the lock" }): then the code after the if is all the
// success path does. nil otherwise.
func (r *runner) fallThroughJoin(g *cfg.CFG, f *flow, then *cfg.Block) *cfg.Block {
	if then.Kind != cfg.KindIfThen {
		return nil
	}
	is, ok := then.Stmt.(*ast.IfStmt)
	if !ok || changesState(is.Body) {
		return nil
	}
	if els, ok := is.Else.(*ast.BlockStmt); ok {
		if changesState(els) || f.firstCall(els) != nil {
			return nil // the success branch does the work
		}
	} else if is.Else != nil {
		// if err != nil { log } else if !ok { return } [else { defer
		// release() }]: a last else runs only on success.
		elif, ok := is.Else.(*ast.IfStmt)
		if !ok || elif.Init != nil {
			return nil
		}
		if _, longer := elif.Else.(*ast.IfStmt); longer {
			return nil
		}
		if edge, _ := f.test(elif.Cond); edge != 0 {
			return nil
		}
	}
	for _, b := range g.Blocks {
		if b.Kind == cfg.KindIfDone && b.Stmt == is {
			return b
		}
	}
	return nil
}

// changesState reports whether a block assigns, sends or increments
// anything: a flag set on failure may gate the code that follows.
func changesState(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}

// cfgOf returns the CFG of the innermost function around call. It is
// built here rather than taken from ctrlflow so that packages with type
// errors are still checked.
func (r *runner) cfgOf(fd *ast.FuncDecl, call *ast.CallExpr) *cfg.CFG {
	path, _ := astutil.PathEnclosingInterval(fileOf(r.pass, fd), call.Pos(), call.End())
	for _, n := range path {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncLit:
			body = n.Body
		case *ast.FuncDecl:
			body = n.Body
		default:
			continue
		}
		if g, ok := r.cfgs[n]; ok {
			return g
		}
		g := cfg.New(body, r.mayReturn)
		r.cfgs[n] = g
		return g
	}
	return nil
}

// mayReturn reports whether a call can return: not panic, os.Exit,
// log.Fatal and friends, or a logger's or test's Fatal/Panic methods.
func (r *runner) mayReturn(call *ast.CallExpr) bool {
	if r.exits.Exits(call) {
		return false // a project's helper that exits or panics
	}
	switch fn := typeutil.Callee(r.pass.TypesInfo, call).(type) {
	case *types.Builtin:
		return fn.Name() != "panic"
	case *types.Func:
		if fn.Pkg() == nil {
			return true
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "os.Exit", "runtime.Goexit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln":
			return false
		}
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
			name := fn.Name()
			if strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic") || name == "FailNow" || strings.HasPrefix(name, "Skip") {
				return false
			}
		}
	}
	return true
}

func fileOf(pass *analysis.Pass, n ast.Node) *ast.File {
	return fixes.File(pass, n.Pos())
}

// useInstead suggests safelock, unless the acquire already is safelock's.
func useInstead(a *acquire) string {
	if strings.HasPrefix(a.name, "safelock ") {
		return ""
	}
	return ", or use " + instead
}

// libHint names the safelock call to use, or how to check it when the
// acquire already is safelock's.
func libHint(a *acquire) string {
	if strings.HasPrefix(a.name, "safelock ") {
		return " (errors.Is(err, safelock.ErrNotAcquired) when another owner holds it)"
	}
	return ", or use " + instead
}

func heldAs(a *acquire) string {
	switch {
	case a.emptyToken:
		return "an empty token"
	case a.cmd != nil && a.cmd.Name == "SETNX" && a.cmd.Method.Name() != "SetNX":
		return "0"
	case a.okAt >= 0, a.cmd != nil && a.cmd.Method.Name() == "SetNX":
		return "false"
	}
	return "a nil reply"
}

func checkHint(a *acquire) string {
	switch {
	case a.lib && a.okAt >= 0:
		method := a.name[strings.LastIndex(a.name, ".")+1:]
		return "check the bool too (ok, err := lock." + method + "(...); if err != nil || !ok { return })"
	case a.emptyToken:
		return `check the token too (if token == "" { return })`
	case a.cmd != nil && a.cmd.Client == redismodel.GoZero:
		return "check the bool too (ok, err := rds.SetnxExCtx(...); if err != nil || !ok { return })"
	case a.cmd != nil && a.cmd.Client == redismodel.RadixV2 && a.cmd.Name == "SETNX":
		return "check the reply (n, err := resp.Int(); if err != nil || n != 1 { return })"
	case a.cmd != nil && a.cmd.Client == redismodel.RadixV2:
		return "check the reply (resp.Str() fails on the nil reply of a held lock)"
	case a.cmd != nil && a.cmd.Client == redismodel.Radix && a.cmd.Name == "SETNX":
		return "read the reply (radix.Cmd(&n, ...)) and check it (if n != 1 { return })"
	case a.cmd != nil && a.cmd.Client == redismodel.Radix:
		return `read the reply (radix.Cmd(&reply, ...)) and check it (if reply != "OK" { return })`
	case a.cmd != nil && a.cmd.Method.Name() == "SetNX":
		return "check the bool too (ok, err := ....Result(); if err != nil || !ok { return })"
	case a.cmd != nil && a.cmd.Name == "SET":
		return "check the reply (redis.String(conn.Do(...)) returns redis.ErrNil when the lock is held)"
	}
	return "check the reply too"
}

func shortCall(pass *analysis.Pass, n ast.Node) string {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return "the code"
	}
	s := fixes.Source(pass, call.Fun)
	if s == "" || len(s) > 60 {
		return "the call"
	}
	return s + "(...)"
}

// comparedWithNil reports whether v is compared with nil in body.
func comparedWithNil(info *types.Info, body ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			if id, ok := ast.Unparen(pair[0]).(*ast.Ident); ok && info.Uses[id] == v && info.Types[pair[1]].IsNil() {
				found = true
			}
		}
		return true
	})
	return found
}

// onlyLogged reports whether every use of v is an argument of a logging
// or formatting call.
func onlyLogged(info *types.Info, body ast.Node, v *types.Var) bool {
	uses, logged := 0, 0
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok || info.Uses[id] != v {
			return true
		}
		uses++
		if len(stack) >= 2 {
			if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && isLogCall(info, call) {
				logged++
			}
		}
		return true
	})
	return uses > 0 && uses == logged
}

func isLogCall(info *types.Info, call *ast.CallExpr) bool {
	f := &flow{info: info}
	return f.trivial(call)
}

// grantsOnError returns the assignment in the error branch of the
// condition block b (taken along edge) that sets the acquire's bool
// outcome to true — if err != nil { ok = true } — when the branch goes on
// instead of returning: the failure is counted as a grant, and the code
// that tests ok next runs the section without the lock.
func (r *runner) grantsOnError(b *cfg.Block, edge int, tested failed, out outcome) *ast.AssignStmt {
	if tested != failErr || out.ok.v == nil {
		return nil
	}
	_, body := failBranch(b, edge)
	if body == nil {
		return nil
	}
	var set *ast.AssignStmt
	leaves := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			leaves = true
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 || n.Tok != token.ASSIGN {
				break
			}
			id, ok := ast.Unparen(n.Lhs[0]).(*ast.Ident)
			tv := r.pass.TypesInfo.Types[n.Rhs[0]]
			if ok && r.pass.TypesInfo.Uses[id] == out.ok.v && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value) {
				set = n
			}
		}
		return true
	})
	if leaves {
		return nil
	}
	return set
}
