package lockresult

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"
)

// failed says which part of an outcome signals failure on a path.
type failed int

const (
	failValue failed = 1 << iota // ok false, reply nil, handle nil
	failErr                      // err != nil
)

// flow answers path questions about one acquire on its function's CFG.
type flow struct {
	info  *types.Info
	g     *cfg.CFG
	out   outcome
	a     *acquire
	cases map[*ast.CaseClause]*ast.SwitchStmt
	kills map[*types.Var]bool // assigning these ends a path: the outcome is renewed
	// releases are where the function gives this lock back (DEL, a
	// compare-and-delete), goroutines and deferred calls included.
	releases []token.Pos
}

// failEdge returns which successor of a condition block is taken when
// the acquire failed (0 for the true edge, 1 for the false edge), and
// what the condition tested; -1 when the condition is not about the
// outcome.
func (f *flow) failEdge(b *cfg.Block) (int, failed) {
	if len(b.Succs) != 2 || len(b.Nodes) == 0 {
		return -1, 0
	}
	cond, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr)
	if !ok {
		return -1, 0
	}
	if cc, ok := b.Stmt.(*ast.CaseClause); ok {
		if sw := f.cases[cc]; sw != nil && sw.Tag != nil {
			return f.compare(sw.Tag, token.EQL, cond)
		}
	}
	return f.test(cond)
}

func (f *flow) test(e ast.Expr) (int, failed) {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			edge, what := f.test(e.X)
			if edge >= 0 {
				edge = 1 - edge
			}
			return edge, what
		}
	case *ast.BinaryExpr:
		if e.Op == token.LOR || e.Op == token.LAND {
			// The CFG keeps a || b as one condition. A failure that makes
			// one side true makes a || b true; one that makes a side false
			// makes a && b false.
			want := 0
			if e.Op == token.LAND {
				want = 1
			}
			var tested failed
			for _, side := range []ast.Expr{e.X, e.Y} {
				if edge, what := f.test(side); edge == want {
					tested |= what
				}
			}
			if tested != 0 {
				return want, tested
			}
			return -1, 0
		}
		if e.Op == token.EQL || e.Op == token.NEQ {
			if edge, what := f.compare(e.X, e.Op, e.Y); edge >= 0 {
				return edge, what
			}
			return f.compare(e.Y, e.Op, e.X)
		}
	case *ast.CallExpr:
		// errors.Is(err, X) / errors.As(err, &t): true means it failed.
		fn, _ := typeutil.Callee(f.info, e).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && (fn.Name() == "Is" || fn.Name() == "As") &&
			len(e.Args) > 0 && f.out.err.matches(f.info, e.Args[0]) {
			return 0, failErr
		}
	}
	if f.out.ok.matches(f.info, e) {
		return 1, failValue
	}
	return -1, 0
}

// compare evaluates x op y where x may be an outcome operand.
func (f *flow) compare(x ast.Expr, op token.Token, y ast.Expr) (int, failed) {
	eq := op == token.EQL
	edge := func(failWhenEqual bool) int {
		if failWhenEqual == eq {
			return 0
		}
		return 1
	}
	tv := f.info.Types[y]
	isNil := tv.IsNil()
	switch {
	case f.out.err.matches(f.info, x):
		if isNil {
			return edge(false), failErr // err != nil fails
		}
		if eq {
			return 0, failErr // err == redis.Nil fails
		}
		if f.a.signal == byError && refusalSentinel(f.info, y) {
			// err != redislock.ErrNotObtained is false when the lock is
			// held elsewhere: that failure takes the false edge (if err
			// != nil && err != ErrNotObtained { return err } lets it in).
			// SetNX answers a held lock with false, not with an error.
			return 1, failErr
		}
		return -1, 0
	case f.out.handle.matches(f.info, x), f.out.reply.matches(f.info, x):
		if isNil {
			return edge(true), failValue
		}
		if tv.Value == nil {
			return -1, 0
		}
		switch tv.Value.Kind() {
		case constant.String:
			if constant.StringVal(tv.Value) == "OK" {
				return edge(false), failValue
			}
			if constant.StringVal(tv.Value) == "" {
				return edge(true), failValue
			}
		case constant.Int:
			if n, ok := constant.Int64Val(tv.Value); ok && (n == 0 || n == 1) {
				return edge(n == 0), failValue
			}
		}
	case f.out.ok.matches(f.info, x):
		if tv.Value != nil && tv.Value.Kind() == constant.Bool {
			return edge(!constant.BoolVal(tv.Value)), failValue
		}
	}
	return -1, 0
}

// follows reports whether a path on which what failed must take the
// failure edge of a condition that tested tested. An error implies a
// failed value (go-redis, redigo and the libraries return a zero value
// with an error); a failed value does not imply an error unless the
// acquire signals by error.
func (f *flow) follows(what, tested failed) bool {
	if what&tested != 0 {
		return true
	}
	return what == failErr || f.a.signal == byError
}

// search walks from the failure edge of cond block b. When the failure
// branch falls through to the code after its if statement (join), it
// returns the first non-trivial call reached after the join, else nil.
func (f *flow) search(b *cfg.Block, edge int, what failed, join *cfg.Block) (call ast.Node) {
	type state struct {
		blk    *cfg.Block
		joined bool
	}
	seen := map[state]bool{}
	work := []state{{b.Succs[edge], false}}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		if s.blk == join && join != nil {
			s.joined = true
		}
		stop := false
		for _, n := range s.blk.Nodes {
			if n.Pos() <= f.a.call.Pos() && f.a.call.End() <= n.End() {
				// Back at the acquire: a retry loop tries again, and
				// what follows depends on that new outcome.
				stop = true
				break
			}
			if s.joined && call == nil {
				// Before an assignment to the outcome: its right side
				// (_, err = db.Exec(...)) runs first.
				call = f.firstCall(n)
			}
			if f.assigns(n) {
				stop = true
				break
			}
			if setsFlag(n) {
				// A flag or error set here may gate what follows.
				stop = true
				break
			}
		}
		if stop {
			continue
		}
		if e, tested := f.failEdge(s.blk); e >= 0 && f.follows(what, tested) {
			if s.joined && what == failErr && tested == failValue && f.a.signal == byValue && (guardsReturning(s.blk, e) || f.guardsRelease(s.blk, e)) {
				// A Redis error, fallen through, meets the test a refused
				// acquire takes too, whose success branch holds the work
				// and returns (if locked { defer release(); return
				// work() }), or gives the lock back inside (if ok { go
				// func() { defer del(); work() }() }): past its failure
				// branch runs what every non-holder runs.
				continue
			}
			work = append(work, state{s.blk.Succs[e], s.joined})
			continue
		}
		for _, succ := range s.blk.Succs {
			work = append(work, state{succ, s.joined})
		}
	}
	return call
}

// guardsRelease reports whether the condition block b's other edge than
// fail enters an if's body that releases the lock: the section ends
// inside it.
func (f *flow) guardsRelease(b *cfg.Block, fail int) bool {
	if len(b.Succs) != 2 {
		return false
	}
	then := b.Succs[1-fail]
	is, ok := then.Stmt.(*ast.IfStmt)
	if then.Kind != cfg.KindIfThen || !ok {
		return false
	}
	// A release deferred by the function itself runs at its end, after
	// what follows the if: the section goes on. One deferred inside a
	// goroutine the body starts ends the section there.
	var deferred []ast.Node
	ast.Inspect(is.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			deferred = append(deferred, n)
		}
		return true
	})
	for _, p := range f.releases {
		if is.Body.Pos() <= p && p < is.Body.End() && !slices.ContainsFunc(deferred, func(d ast.Node) bool { return d.Pos() <= p && p < d.End() }) {
			return true
		}
	}
	return false
}

// guardsReturning reports whether the condition block b's other edge
// than fail enters an if's body that ends by returning.
func guardsReturning(b *cfg.Block, fail int) bool {
	if len(b.Succs) != 2 {
		return false
	}
	then := b.Succs[1-fail]
	is, ok := then.Stmt.(*ast.IfStmt)
	if then.Kind != cfg.KindIfThen || !ok || len(is.Body.List) == 0 {
		return false
	}
	_, ret := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt)
	return ret
}

// reached returns the condition blocks that test the outcome of the
// acquire call: those a path from the acquire reaches with no assignment
// to an outcome variable on the way. An err tested after
// _, err = db.Update(...) is that update's error, not the acquire's.
func (f *flow) reached(call *ast.CallExpr) map[*cfg.Block]bool {
	out := map[*cfg.Block]bool{}
	var start *cfg.Block
	at := -1
	for _, b := range f.g.Blocks {
		for i, n := range b.Nodes {
			if n.Pos() <= call.Pos() && call.End() <= n.End() {
				start, at = b, i
			}
		}
	}
	if start == nil {
		return out
	}
	seen := map[*cfg.Block]bool{}
	var walk func(b *cfg.Block, from int)
	walk = func(b *cfg.Block, from int) {
		for _, n := range b.Nodes[from:] {
			if f.assigns(n) {
				return
			}
		}
		out[b] = true
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				walk(s, 0)
			}
		}
	}
	walk(start, at+1)
	return out
}

// assigns reports whether n assigns an outcome variable.
func (f *flow) assigns(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					if v, ok := f.info.ObjectOf(id).(*types.Var); ok && f.kills[v] {
						found = true
					}
				}
			}
		}
		return true
	})
	return found
}

// firstCall returns the first call in n that does real work: not logging,
// formatting, errors, time, metrics or a call through a func variable.
func (f *flow) firstCall(n ast.Node) ast.Node {
	var found ast.Node
	ast.Inspect(n, func(x ast.Node) bool {
		if found != nil {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // not run here
		case *ast.DeferStmt:
			return false // runs at return: usually the release itself
		case *ast.CallExpr:
			if !f.trivial(x) {
				found = x
				return false
			}
		}
		return true
	})
	return found
}

var trivialPkgs = map[string]bool{
	"log": true, "log/slog": true, "fmt": true, "errors": true, "time": true, "strings": true,
	"strconv": true, "context": true, "sync/atomic": true, "sync": true, "os": true,
	"github.com/sirupsen/logrus": true, "go.uber.org/zap": true, "github.com/rs/zerolog": true,
	"github.com/rs/zerolog/log": true, "github.com/prometheus/client_golang/prometheus": true,
}

func (f *flow) trivial(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok {
		return true // builtins, conversions, func variables: cannot tell
	}
	if fn.Pkg() == nil || trivialPkgs[fn.Pkg().Path()] {
		return true
	}
	name := fn.Name()
	for _, p := range []string{"Print", "Log", "Info", "Debug", "Warn", "Error", "Fatal", "Trace", "With", "Inc", "Observe", "Set", "Add", "Record"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	// Methods on the outcome itself (err.Error()) are not the section.
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if f.out.err.matches(f.info, sel.X) || f.out.ok.matches(f.info, sel.X) {
			return true
		}
	}
	return false
}

// setsFlag reports whether n assigns an existing variable (x = v, x++):
// the code after it may test that variable instead of the outcome.
func setsFlag(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return n.Tok != token.DEFINE
	case *ast.IncDecStmt:
		return true
	}
	return false
}

// refusalSentinel reports whether e is a package error variable that a
// lock library returns when another owner holds the lock: its name says
// so (ErrNotObtained, ErrNotAcquired, ErrLockNotObtained, ErrNotLocked,
// ErrAlreadyLocked, ErrLockTaken), or it is the nil reply of a client's
// SET NX (go-redis redis.Nil, redigo's ErrNil, rueidis Nil).
func refusalSentinel(info *types.Info, e ast.Expr) bool {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return false
	}
	// go-redis's Nil is a constant; redigo's ErrNil and rueidis's Nil
	// are variables.
	obj := info.Uses[id]
	if obj != nil && obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
		switch obj.Pkg().Path() + "." + obj.Name() {
		case "github.com/redis/go-redis/v9.Nil", "github.com/go-redis/redis/v8.Nil", "github.com/go-redis/redis/v7.Nil",
			"github.com/go-redis/redis.Nil", "github.com/gomodule/redigo/redis.ErrNil", "github.com/garyburd/redigo/redis.ErrNil",
			"github.com/redis/rueidis.Nil":
			return true
		}
	}
	return namedRefusal(info, e)
}

// namedRefusal reports whether e is a package error variable whose name
// says another owner holds the lock.
func namedRefusal(info *types.Info, e ast.Expr) bool {
	v := keyexpr.VarOf(info, e)
	if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	name := strings.ToLower(v.Name())
	for _, w := range []string{"notobtained", "notacquired", "notlocked", "alreadylocked", "locktaken", "lockheld"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}
