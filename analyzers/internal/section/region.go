package section

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// open computes the section of one acquire in fn and records it; all are
// every release of the lock in fd, rels those on fn's own paths.
func (b *builder) open(lk *Lock, fn ast.Node, fd *ast.FuncDecl, rels []*ast.CallExpr, deferred *ast.CallExpr, all []*ast.CallExpr) {
	g := b.cfgOf(fn)
	if g == nil {
		return
	}
	start, idx := findNode(g, lk.Acquire)
	if start == nil {
		return
	}
	var receiver types.Object
	if lk.Op != nil && lk.Op.Cmd != nil {
		if v := lk.Op.Cmd.ReplyVar(); v != nil {
			receiver = v
		}
	}
	r := b.results(lk.Acquire, fn, receiver)
	if lk.Op != nil && lk.Op.Cmd != nil {
		r.acquired, r.refused = scriptReplies(lk.Op.Cmd)
	}
	s := b.newSection(lk, fn, fd)
	s.Releases, s.Deferred = rels, deferred
	s.handOver(all)
	stops := func(n ast.Node) bool {
		if within(lk.Acquire, n) {
			return true // back at the acquire: a new attempt
		}
		for _, rel := range rels {
			if within(rel, n) {
				return true
			}
			if rs := b.rangeReleases[rel]; rs != nil && n == rs.X {
				return true // for _, m := range held { m.Unlock() }
			}
		}
		return false
	}
	// outcome splits the successors of a condition on the acquire's
	// outcome into the one taken on success and the one taken on failure.
	outcome := func(blk *cfg.Block) (succs []*cfg.Block, failed *cfg.Block) {
		succs = blk.Succs
		if len(succs) == 2 && len(blk.Nodes) > 0 {
			if cond, ok := blk.Nodes[len(blk.Nodes)-1].(ast.Expr); ok && b.condition(blk) {
				switch r.polarity(cond) {
				case failIfTrue:
					return succs[1:], succs[0]
				case failIfFalse:
					return succs[:1], succs[1]
				}
			}
		}
		return succs, nil
	}
	// A loop around the acquire starts a new attempt with each iteration:
	// what the next one runs before its acquire is not this attempt's
	// section, and a failed attempt does not reach past it.
	loops := enclosingLoops(fn, lk.Acquire)
	newIteration := func(blk *cfg.Block) bool {
		return (blk.Kind == cfg.KindForBody || blk.Kind == cfg.KindRangeBody) && loops[blk.Stmt]
	}
	seen := map[*cfg.Block]bool{}
	// failures are the failure branches of tests of the outcome; errOnly
	// those of an error test (err != nil) beside a bool outcome (SetNX's
	// ok): Redis failed, not "held elsewhere".
	var failures, errOnly []*cfg.Block
	var visit func(blk *cfg.Block, from int)
	visit = func(blk *cfg.Block, from int) {
		for i := from; i < len(blk.Nodes); i++ {
			if stops(blk.Nodes[i]) {
				return
			}
			s.Nodes = append(s.Nodes, blk.Nodes[i])
		}
		succs, failed := outcome(blk)
		if failed != nil {
			b.fail(s, failed)
			if r.redisFailed(blk.Nodes[len(blk.Nodes)-1]) {
				errOnly = append(errOnly, failed)
			} else {
				failures = append(failures, failed)
			}
		}
		for _, next := range succs {
			if !seen[next] && !newIteration(next) {
				seen[next] = true
				visit(next, 0)
			}
		}
	}
	// When the acquire's own node is the condition that decides success,
	// visit starts past it and only reads its polarity.
	visit(start, idx+1)
	// Code that a failed acquire also reaches (after if isLeader { ... }
	// else { ... }, or after an error branch that only logs) runs whether
	// or not the lock is held: it is not the section's. A failed path
	// fails every later test of the outcome (go-redis answers false with
	// an error), so it goes on only through their failure branches. It
	// ends where the same acquire is tried again into the outcome's
	// variables, and at a new iteration of a loop around the acquire.
	// Where a test of the bool leaves when the lock is held elsewhere, an
	// error branch that goes on (if err != nil { log } else if !ok {
	// return }) only runs the work without the lock when Redis fails: a
	// fail-open (lockresult's finding), not a sign that the lock does not
	// guard the work.
	if len(failures) == 0 {
		failures = errOnly
	}
	var failed map[ast.Node]bool
	seenFailed := map[*cfg.Block]bool{}
	var walk func(blk *cfg.Block)
	walk = func(blk *cfg.Block) {
		for _, n := range blk.Nodes {
			if stops(n) || b.retries(n, r, lk.Acquire) {
				return
			}
			if failed == nil {
				failed = map[ast.Node]bool{}
			}
			failed[n] = true
		}
		succs, fail := outcome(blk)
		if fail != nil {
			succs = []*cfg.Block{fail}
		}
		for _, next := range succs {
			if !seenFailed[next] && !newIteration(next) {
				seenFailed[next] = true
				walk(next)
			}
		}
	}
	for _, f := range failures {
		if !seenFailed[f] {
			seenFailed[f] = true
			walk(f)
		}
	}
	if failed != nil {
		s.Nodes = slices.DeleteFunc(s.Nodes, func(n ast.Node) bool { return failed[n] })
	}
	b.sections = append(b.sections, s)
}

// enclosingLoops returns the for and range statements of fn whose body
// holds the acquire.
func enclosingLoops(fn ast.Node, acq *ast.CallExpr) map[ast.Stmt]bool {
	loops := map[ast.Stmt]bool{}
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil || !within(acq, n) {
			return false
		}
		switch n := n.(type) {
		case *ast.ForStmt:
			if within(acq, n.Body) {
				loops[n] = true
			}
		case *ast.RangeStmt:
			if within(acq, n.Body) {
				loops[n] = true
			}
		}
		return true
	})
	return loops
}

// retries reports whether n assigns the acquire's outcome variables a new
// attempt of the same acquire: a call of its callee, directly or in a
// function literal handed to a helper (a wait-and-retry loop). Past it, a
// failed path may hold the lock.
func (b *builder) retries(n ast.Node, r *results, acq *ast.CallExpr) bool {
	as, ok := n.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Rhs) != 1 {
		return false
	}
	outcome := false
	for _, l := range as.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && r.vars[r.info.Uses[id]] {
			outcome = true
		}
	}
	callee := typeutil.Callee(r.info, acq)
	if !outcome || callee == nil {
		return false
	}
	found := false
	ast.Inspect(as.Rhs[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && call != acq && typeutil.Callee(r.info, call) == callee {
			found = true
		}
		return !found
	})
	return found
}

// fail records blk, the successor of the first test of the acquire's
// outcome taken when the lock was not taken, as the section's failure
// branch when it is an if's body or else block.
//
// An if without an else (if ok { ... }) whose body does not leave goes
// on after it on both paths: the statements that follow it in its
// block are recorded as FailureAfter, since they run when the lock was
// not taken too.
func (b *builder) fail(s *Section, blk *cfg.Block) {
	ifs, ok := blk.Stmt.(*ast.IfStmt)
	if s.Failure != nil || s.FailureAfter != nil || !ok {
		return
	}
	switch blk.Kind {
	case cfg.KindIfThen:
		s.Failure = ifs.Body
	case cfg.KindIfElse:
		s.Failure, _ = ifs.Else.(*ast.BlockStmt)
	case cfg.KindIfDone:
		if ifs.Else != nil || leaves(ifs.Body) {
			// After an if ok { ...; return }, only the failed path goes
			// on: code there that releases and works reads the outcome
			// backwards, which is another defect than a stray release.
			return
		}
		if block, ok := b.parent[ifs].(*ast.BlockStmt); ok {
			for i, st := range block.List {
				if st == ifs {
					s.FailureAfter = block.List[i+1:]
				}
			}
		}
	}
}

// leaves reports whether a block ends by leaving it (return, continue,
// break, goto, panic).
func leaves(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := last.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// condition reports whether the last node of blk is a boolean condition
// with Succs[0] taken when it is true: an if, for or tagless switch case.
func (b *builder) condition(blk *cfg.Block) bool {
	switch blk.Kind {
	case cfg.KindSwitchNextCase:
		cc, ok := blk.Stmt.(*ast.CaseClause)
		if !ok {
			return false
		}
		body, _ := b.parent[cc].(*ast.BlockStmt)
		sw, ok := b.parent[body].(*ast.SwitchStmt)
		return ok && sw.Tag == nil
	case cfg.KindRangeLoop, cfg.KindSelectAfterCase:
		return false
	}
	return true
}

// findNode returns the block and index of the smallest live CFG node
// containing n.
func findNode(g *cfg.CFG, n ast.Node) (*cfg.Block, int) {
	var best *cfg.Block
	idx := -1
	for _, blk := range g.Blocks {
		if !blk.Live {
			continue
		}
		for i, node := range blk.Nodes {
			if !within(n, node) {
				continue
			}
			if best == nil || node.End()-node.Pos() < best.Nodes[idx].End()-best.Nodes[idx].Pos() {
				best, idx = blk, i
			}
		}
	}
	return best, idx
}

const (
	failIfTrue  = 1
	failIfFalse = -1
)

// results are what an acquire hands back: the chain of calls that read
// its reply (rdb.SetNX(...).Result(), redis.String(conn.Do(...))) and
// the variables it is assigned to. Conditions on them decide success.
type results struct {
	info  *types.Info
	chain map[ast.Expr]bool
	vars  map[types.Object]bool
	// until is where each result variable is first assigned again;
	// later conditions on it test something else (tx, err :=
	// db.Begin() reuses err, while ok still says whether the lock was
	// taken).
	until map[types.Object]token.Pos
	// acquired and refused are a Lua acquire's own replies (see
	// luascript.Script.AcquireReplies), "" when not known: then 1 means
	// acquired and 0 held, as SETNX answers.
	acquired, refused string
}

// scriptReplies returns what a script acquire returns when it takes the
// lock and when the key is held, or "", "".
func scriptReplies(cmd *redismodel.Command) (acquired, refused string) {
	if cmd.Script == nil {
		return "", ""
	}
	for k := 1; k <= max(len(cmd.Keys), 1); k++ {
		if a, r, ok := cmd.Script.AcquireReplies(k); ok {
			return a, r
		}
	}
	return "", ""
}

// results finds what the acquire hands back; receiver, when not nil, is
// the variable its reply is written into (radix).
func (b *builder) results(acq *ast.CallExpr, fn ast.Node, receiver types.Object) *results {
	r := &results{info: b.pass.TypesInfo, chain: map[ast.Expr]bool{acq: true}, vars: map[types.Object]bool{}, until: map[types.Object]token.Pos{}}
	if receiver != nil {
		r.vars[receiver] = true
	}
	var cur ast.Expr = acq
	for {
		p := b.parent[cur]
		if sel, ok := p.(*ast.SelectorExpr); ok && sel.X == cur {
			if call, ok := b.parent[sel].(*ast.CallExpr); ok && call.Fun == sel {
				cur = call
				r.chain[cur] = true
				continue
			}
		}
		if paren, ok := p.(*ast.ParenExpr); ok {
			cur = paren
			r.chain[cur] = true
			continue
		}
		if call, ok := p.(*ast.CallExpr); ok && (len(call.Args) == 1 && call.Args[0] == cur || SendsBuilt(r.info, call, cur)) {
			cur = call // redis.String(conn.Do(...)), redis.Bool(...), client.Do(ctx, built)
			r.chain[cur] = true
			continue
		}
		break
	}
	var assign ast.Node
	switch p := b.parent[cur].(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) == 1 && p.Rhs[0] == cur {
			assign = p
			for _, l := range p.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					if obj := r.info.ObjectOf(id); obj != nil {
						r.vars[obj] = true
					}
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 && p.Values[0] == cur {
			assign = p
			for _, id := range p.Names {
				if obj := r.info.ObjectOf(id); obj != nil {
					r.vars[obj] = true
				}
			}
		}
	}
	if len(r.vars) > 0 {
		ast.Inspect(fn, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || ast.Node(as) == assign || as.Pos() < acq.Pos() {
				return true
			}
			for _, l := range as.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && r.vars[r.info.ObjectOf(id)] {
					if u, ok := r.until[r.info.ObjectOf(id)]; !ok || as.Pos() < u {
						r.until[r.info.ObjectOf(id)] = as.Pos()
					}
				}
			}
			return true
		})
	}
	return r
}

// current reports whether no result variable n mentions was assigned
// again before n.
func (r *results) current(n ast.Node) bool {
	ok := true
	ast.Inspect(n, func(m ast.Node) bool {
		if id, isID := m.(*ast.Ident); isID {
			if u, set := r.until[r.info.Uses[id]]; set && n.Pos() >= u {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// redisFailed reports whether n tests only whether the acquire's error is
// non-nil (err != nil) while its outcome also has a bool (SetNX's ok):
// its failure branch is taken when Redis failed, and the bool says
// whether the lock is held elsewhere. Where the error is the only
// outcome (a library's ErrNotObtained, SET NX's redis.Nil) it says both.
func (r *results) redisFailed(n ast.Node) bool {
	e, ok := n.(*ast.BinaryExpr)
	if !ok || e.Op != token.NEQ || !r.current(n) {
		return false
	}
	x, y := ast.Unparen(e.X), ast.Unparen(e.Y)
	if !r.isResult(x) {
		x, y = y, x
	}
	if tv, ok := r.info.Types[y]; !ok || !tv.IsNil() || !r.isResult(x) || !isError(r.info.TypeOf(x)) {
		return false
	}
	for v := range r.vars {
		if isBool(v.Type()) {
			return true
		}
	}
	return false
}

// polarity says which way cond goes when the acquire failed.
func (r *results) polarity(cond ast.Expr) int {
	if !r.current(cond) {
		return 0
	}
	return r.pol(cond)
}

func (r *results) pol(e ast.Expr) int {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return -r.pol(e.X)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			a, b := r.pol(e.X), r.pol(e.Y)
			switch {
			case a == 0:
				return b
			case b == 0 || a == b:
				return a
			}
			return 0
		case token.EQL, token.NEQ:
			sign := 1
			if e.Op == token.NEQ {
				sign = -1
			}
			x, y := e.X, e.Y
			if !r.isResult(x) {
				x, y = y, x
			}
			if !r.isResult(x) {
				return 0
			}
			return sign * r.equals(x, y)
		}
	case *ast.Ident:
		if r.vars[r.info.Uses[e]] && isBool(r.info.TypeOf(e)) {
			return failIfFalse
		}
	case *ast.SelectorExpr:
		// radix's reply wrapper: MaybeNil.Nil (v3), Maybe.Null (v4) is
		// true when SET NX found the key held.
		if (e.Sel.Name == "Nil" || e.Sel.Name == "Null") && r.isResult(e.X) && isRadixMaybe(r.info.TypeOf(e.X)) {
			return failIfTrue
		}
	case *ast.CallExpr:
		// errors.Is(err, ErrNotObtained)
		if calleeIs(r.info, e, "errors", "Is") && len(e.Args) == 2 && r.isResult(e.Args[0]) && isError(r.info.TypeOf(e.Args[0])) {
			return failIfTrue
		}
	}
	if r.chain[e] && isBool(r.info.TypeOf(e)) {
		return failIfFalse
	}
	return 0
}

// equals returns the polarity of "x == y" for a result x.
func (r *results) equals(x, y ast.Expr) int {
	tx := r.info.TypeOf(x)
	ty, ok := r.info.Types[y]
	if !ok {
		return 0
	}
	switch {
	case ty.IsNil():
		if isError(tx) {
			return failIfFalse // err == nil: acquired
		}
		return failIfTrue // lease == nil, reply == nil: not acquired
	case ty.Value != nil:
		switch ty.Value.Kind() {
		case constant.String:
			switch constant.StringVal(ty.Value) {
			case "OK":
				return failIfFalse
			case "":
				return failIfTrue
			}
		case constant.Bool:
			if constant.BoolVal(ty.Value) {
				return failIfFalse
			}
			return failIfTrue
		case constant.Int:
			if r.acquired != "" {
				switch ty.Value.ExactString() {
				case r.acquired:
					return failIfFalse
				case r.refused:
					return failIfTrue
				}
				return 0
			}
			switch v, _ := constant.Int64Val(ty.Value); v {
			case 1:
				return failIfFalse
			case 0:
				return failIfTrue
			}
		}
	case isError(tx) && isError(ty.Type):
		return failIfTrue // err == redis.Nil, err == redislock.ErrNotObtained
	}
	return 0
}

func (r *results) isResult(e ast.Expr) bool {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.Ident:
		return r.vars[r.info.Uses[e]]
	case *ast.TypeAssertExpr:
		return e.Type != nil && r.isResult(e.X) // reply.(int64)
	case *ast.CallExpr:
		// int64(reply), cast.ToInt64(reply): the same number.
		if len(e.Args) == 1 && !r.chain[e] && r.isResult(e.Args[0]) && isConversion(r.info, e) {
			return true
		}
	}
	return r.chain[e]
}

// isRadixMaybe reports whether t is radix's nil-reporting receiver
// (v3 MaybeNil, v4 Maybe).
func isRadixMaybe(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && redismodel.IsRadix(n.Obj().Pkg().Path()) &&
		(n.Obj().Name() == "MaybeNil" || n.Obj().Name() == "Maybe")
}

// isConversion reports whether call converts its argument to a number or
// string: a type conversion, or a spf13/cast To* function.
func isConversion(info *types.Info, call *ast.CallExpr) bool {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return true
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "github.com/spf13/cast" && strings.HasPrefix(fn.Name(), "To")
}

func isBool(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool {
	return t != nil && types.Implements(t, errorType.Underlying().(*types.Interface)) && !isBool(t)
}

// SendsBuilt reports whether call is a client's Do sending the command
// built by arg: rueidis' Do(ctx, cmd) (rueidis models the command at its
// Build call), radix's Do(action) and Do(ctx, action) (radix models it
// at the action's constructor).
func SendsBuilt(info *types.Info, call *ast.CallExpr, arg ast.Expr) bool {
	n := len(call.Args)
	if n == 0 || n > 2 || call.Args[n-1] != arg {
		return false
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Name() != "Do" || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	return n == 2 && redismodel.IsRueidisClient(path) || redismodel.IsRadix(path)
}
