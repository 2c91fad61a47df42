package lockfence

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/locklint/locklint/analyzers/internal/docs"
	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/section"
	"github.com/locklint/locklint/analyzers/internal/stores"
)

//go:embed doc.go
var doc string

// Analyzer reports writes under a Redis lock that no fencing token guards.
var Analyzer = &analysis.Analyzer{
	Name:             "lockfence",
	Doc:              docs.Extract(doc, "lockfence"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/lockfence/doc.go",
	Requires:         []*analysis.Analyzer{section.Analyzer, stores.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
}

const useFence = "acquire with safelock.Locker.TryAcquire and check Lease.Fence() where the write lands " +
	"(the safelock/fence helpers, or UPDATE ... WHERE ... AND fence < ?)"

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[section.Analyzer].(*section.Result)
	helpers := pass.ResultOf[stores.Analyzer].(*stores.Result)
	if len(res.Sections) == 0 {
		return nil, nil
	}
	done := map[string]bool{} // writes already judged (overlapping sections)
	rh := newRedisHelpers(pass, res, helpers)
	rh.guardsStore = storeLocks(pass, res, helpers)
	for _, s := range res.Sections {
		if lifecycle.IsTestFile(pass.Fset, s.Lock.Acquire.Pos()) || s.PeriodKey(pass.TypesInfo, res.Defs) {
			continue // a period's key: nobody else takes it once it lapsed
		}
		if throttle(pass.TypesInfo, s) {
			continue // at most once per TTL: nothing is held, so nothing is fenced
		}
		check(pass, res, helpers, rh, s, done)
	}
	return nil, nil
}

// throttleWords name a refusal for coming too often.
var throttleWords = regexp.MustCompile(`(?i)(too_?frequent|frequent|too_?many|rate_?limit|throttl|cool_?down)`)

// throttle reports whether the section's key is a throttle rather than a
// lock: nothing releases it (it is there to expire), and a refusal
// answers that the caller comes too often (return ErrTooFrequent,
// ErrRequestSmsFrequent, errors.New("rate limited")). What runs after it
// is not shut out of anything, so no fence is missing.
func throttle(info *types.Info, s *section.Section) bool {
	if len(s.Releases) > 0 || s.Deferred != nil {
		return false
	}
	// The refusal: the failure branch, or the body of any if after the
	// acquire that tests what it answered (if err != nil {...}; if !ok
	// { return ErrTooFrequent }).
	outcome := map[types.Object]bool{}
	branches := []ast.Node{}
	if s.Failure != nil {
		branches = append(branches, s.Failure)
	}
	ast.Inspect(section.FuncBody(s.Func), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && n.Rhs[0].Pos() <= s.Lock.Acquire.Pos() && s.Lock.Acquire.End() <= n.Rhs[0].End() {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && info.ObjectOf(id) != nil {
						outcome[info.ObjectOf(id)] = true
					}
				}
			}
		case *ast.IfStmt:
			if n.Pos() > s.Lock.Acquire.End() && section.Mentions(info, n.Cond, outcome) {
				branches = append(branches, n.Body)
			}
		}
		return true
	})
	named := false
	for _, b := range branches {
		ast.Inspect(b, func(n ast.Node) bool {
			if named {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				for _, r := range n.Results {
					ast.Inspect(r, func(m ast.Node) bool {
						switch m := m.(type) {
						case *ast.Ident:
							named = named || throttleWords.MatchString(m.Name)
						case *ast.BasicLit:
							named = named || throttleWords.MatchString(m.Value)
						}
						return !named
					})
				}
			}
			return !named
		})
	}
	return named
}

// check judges the writes of one section.
func check(pass *analysis.Pass, res *section.Result, helpers *stores.Result, rh *redisHelpers, s *section.Section, done map[string]bool) {
	info := pass.TypesInfo
	lk := s.Lock
	cmds := map[*ast.CallExpr]*redismodel.Command{}
	for _, c := range res.Lifecycle.Calls[s.Decl] {
		if c.Cmd != nil {
			cmds[c.Call] = c.Cmd
		}
	}
	root := ast.Node(s.Decl)
	if !within(s.Func, s.Decl) {
		root = s.Func
	}
	token := section.NewFlowSeeded(info, root, func(c *ast.CallExpr) bool { return locklib.IsToken(info, c) })
	var writes []*stores.Write
	viaHelper := map[*stores.Write]bool{} // made inside a helper the section calls
	incrs := map[*ast.CallExpr]bool{}     // INCRs in the section: candidate home-made fences
	s.Inspect(func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		w := stores.Classify(info, res.Defs, call, cmds[call])
		if w == nil {
			n := len(writes)
			writes = append(writes, helpers.Helper(info, call)...)
			writes = append(writes, rh.writes(call, s, token)...)
			writes = append(writes, persistentSets(pass, res, s, call)...)
			for _, hw := range writes[n:] {
				viaHelper[hw] = true
			}
			return true
		}
		if w.Kind == stores.Redis && (onLockKey(res, s, w) || keyedBy(token, w) || cacheExpiredAfter(info, res, w, cmds)) {
			return true
		}
		if w.Cmd != nil && (w.Cmd.Name == "INCR" || w.Cmd.Name == "INCRBY") {
			incrs[call] = true
		}
		writes = append(writes, w)
		return true
	})
	if len(writes) == 0 {
		return
	}
	fence := section.NewFlow(info, root, func(c *ast.CallExpr) bool {
		lc := locklib.Classify(info, c)
		return lc != nil && lc.Role == locklib.Fence
	})
	// A home-made fence: an INCR in the section whose value is checked as a
	// fence (a fence condition or helper) or is named like one.
	counter := section.NewFlow(info, root, func(c *ast.CallExpr) bool { return incrs[c] })
	var homeMade *stores.Write
	for _, w := range writes {
		if !incrs[w.Call] {
			continue
		}
		if namedFence(res, s, w) || checkedSomewhere(writes, counter) {
			homeMade = w
			break
		}
	}

	claimedBy := stores.Claims(info, root, writes)
	var unfenced []*stores.Write
	for _, w := range writes {
		key := fmt.Sprint(w.Call.Pos(), w.What)
		if done[key] || w == homeMade {
			continue
		}
		done[key] = true
		fenced := reaches(fence, w.Values) || carriesGrant(info, w.Values)
		if !fenced && homeMade != nil && reaches(counter, w.Values) {
			continue // judged with the INCR below
		}
		if !fenced {
			if w.SelfGuarded() {
				continue // UPDATE ... WHERE the set column is still empty: the row refuses a stale write
			}
			if helpers.RowLocked(root, w) {
				continue // after SELECT ... FOR UPDATE in its transaction: the database serialises it
			}
			if rolledBack(pass, w.Call) {
				continue // the transaction's callback returns an error right after it: rolled back
			}
			if stores.Claimed(root, claimedBy, w) {
				continue // after a conditional UPDATE that changed a row: only its claimant gets here
			}
			if w.Kind != stores.Fenced && (len(unfenced) == 0 || unfenced[len(unfenced)-1].Call != w.Call) {
				unfenced = append(unfenced, w)
			}
			continue
		}
		if w.NeedsCondition() {
			if ok, known := w.FenceCondition(fence.Reaches); known && !ok {
				pass.Report(analysis.Diagnostic{
					Pos: w.Call.Pos(), End: w.Call.End(),
					Message: fmt.Sprintf("the fencing token reaches this %s, but the statement has no fence condition: "+
						"a stale holder's write still overwrites the newer holder's; "+
						"add a condition such as AND fence < ? bound to Lease.Fence(), or use the safelock/fence SQL helper", w.What),
					Related: []analysis.RelatedInformation{{Pos: lk.Acquire.Pos(), End: lk.Acquire.End(), Message: "lock acquired here"}},
				})
			}
		}
	}
	if homeMade != nil && !done[fmt.Sprint(homeMade.Call.Pos(), "INCR")] {
		done[fmt.Sprint(homeMade.Call.Pos(), "INCR")] = true
		pass.Report(analysis.Diagnostic{
			Pos: homeMade.Call.Pos(), End: homeMade.Call.End(),
			Message: fmt.Sprintf("fencing token taken by a separate %s after acquiring %s: "+
				"the token is not issued atomically with the lock, and a counter on one Redis can go backwards after a failover, "+
				"so a stale holder can present a higher token; use safelock.Locker.TryAcquire, whose Lease.Fence() is issued "+
				"in the same step, and the safelock/fence helpers", homeMade.Cmd.Name, lk.Describe()),
			Related: []analysis.RelatedInformation{{Pos: lk.Acquire.Pos(), End: lk.Acquire.End(), Message: "lock acquired here"}},
		})
	}
	if len(unfenced) == 0 {
		return
	}
	// The section's own writes come first: they are the clearest
	// evidence; writes in helpers follow as related information. Among
	// them, a write to a store of record (a database, a file) comes before
	// a Redis write: that is where a fence is checked (UPDATE ... AND
	// fence < ?), and where a late write does lasting harm; a section that
	// takes an id from a Redis pool and then inserts the row is reported
	// at the insert.
	rank := func(w *stores.Write) int {
		r := 0
		if viaHelper[w] {
			r += 2
		}
		if w.Kind == stores.Redis {
			r++
		}
		return r
	}
	sort.SliceStable(unfenced, func(i, j int) bool { return rank(unfenced[i]) < rank(unfenced[j]) })
	w := unfenced[0]
	at, what := ast.Node(w.Call), w.What
	related := []analysis.RelatedInformation{{Pos: lk.Acquire.Pos(), End: lk.Acquire.End(), Message: "lock acquired here"}}
	if viaHelper[w] {
		if site := rh.inlinedWrite(w.Call, w.Site()); site != nil {
			// An unexported helper called only here is the section's own
			// code moved out: report where it writes.
			at, what = site.Call, site.What
			related = append(related, analysis.RelatedInformation{Pos: w.Call.Pos(), End: w.Call.End(), Message: "called under the lock here"})
		} else if site := rh.localWrite(w.Call, w.Site()); site != nil {
			// A helper of this package shared with other callers: the
			// report stays at the call, and shows where the write lands.
			related = append(related, analysis.RelatedInformation{Pos: site.Call.Pos(), End: site.Call.End(), Message: "the write lands here: " + site.What})
		}
	}
	if at == ast.Node(w.Call) {
		at = handedTo(pass, w)
	}
	for _, o := range unfenced[1:] {
		related = append(related, analysis.RelatedInformation{Pos: o.Call.Pos(), End: o.Call.End(), Message: "also written without a fence: " + o.What})
	}
	var msg string
	if lk.Lib == locklib.Safelock {
		msg = fmt.Sprintf("%s under %s never receives the lease's Fence(): if this holder stalls past the TTL "+
			"(GC pause, slow network), another process takes the lock and this late write still lands; "+
			"pass Lease.Fence() to the write and check it where it lands (the safelock/fence helpers, or UPDATE ... WHERE ... AND fence < ?)",
			what, lk.Describe())
	} else {
		msg = fmt.Sprintf("%s under %s carries no fencing token: if this holder stalls past the TTL "+
			"(GC pause, slow network), another process takes the lock and this late write still lands; %s",
			what, lk.Describe(), useFence)
	}
	pass.Report(analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Message: msg, Related: related})
}

// cacheExpiredAfter reports whether a Redis SET without a TTL writes a key
// named as a cache that the same function then gives a TTL (SET cacheKey
// v; EXPIRE cacheKey 300): a cache fill in two commands, as cacheFill's
// SET with a TTL is in one.
func cacheExpiredAfter(info *types.Info, res *section.Result, w *stores.Write, cmds map[*ast.CallExpr]*redismodel.Command) bool {
	c := w.Cmd
	if c == nil || c.Name != "SET" || c.SetsExpiry() || c.Key() == nil || !stores.CacheKeyNamed(info, res.Defs, c) {
		return false
	}
	key := types.ExprString(c.Key())
	for _, o := range cmds {
		if (o.Name == "EXPIRE" || o.Name == "PEXPIRE") && o.Key() != nil && o.Call.Pos() > c.Call.Pos() && types.ExprString(o.Key()) == key {
			return true
		}
	}
	return false
}

// onLockKey reports whether a Redis write is on the lock's own key (a
// renewal or handover, not protected data).
func onLockKey(res *section.Result, s *section.Section, w *stores.Write) bool {
	if !s.Lock.Key.Known() || s.Lock.Lib != locklib.Raw {
		return false
	}
	env := res.Lifecycle.Env(s.Decl)
	for _, k := range w.Keys() {
		if keyexpr.Same(env.Of(k), s.Lock.Key, true) {
			return true
		}
	}
	return false
}

// keyedBy reports whether a Redis write's key is made from the lock's
// owner token (a library lock's random value): each holder writes under
// keys of its own (state:<token>), and readers that look keys up by the
// current holder's token never see a stale holder's late write. The
// token namespaces the data; no fence is needed.
func keyedBy(token *section.Flow, w *stores.Write) bool {
	for _, k := range w.Keys() {
		if token.Reaches(k) {
			return true
		}
	}
	return false
}

var fenceName = regexp.MustCompile(`(?i)fenc|epoch|generation`)

// namedFence reports whether an INCR's key or result variable is named
// like a fencing token.
func namedFence(res *section.Result, s *section.Section, w *stores.Write) bool {
	for _, k := range w.Keys() {
		if fenceName.MatchString(res.Lifecycle.Env(s.Decl).Of(k).Shape) {
			return true
		}
	}
	return false
}

// checkedSomewhere reports whether a counter value reaches a fence
// condition or a fence helper.
func checkedSomewhere(writes []*stores.Write, counter *section.Flow) bool {
	for _, w := range writes {
		if !reaches(counter, w.Values) {
			continue
		}
		if w.Kind == stores.Fenced {
			return true
		}
		if ok, _ := w.FenceCondition(counter.Reaches); ok {
			return true
		}
	}
	return false
}

func reaches(f *section.Flow, values []ast.Expr) bool {
	for _, v := range values {
		if f.Reaches(v) {
			return true
		}
	}
	return false
}

func within(n, root ast.Node) bool { return root.Pos() <= n.Pos() && n.End() <= root.End() }

// carriesGrant reports whether a value has a Fence() int64 method: a
// safelock Lease or a fence.Grant handed to a helper that checks it.
func carriesGrant(info *types.Info, values []ast.Expr) bool {
	for _, v := range values {
		t := info.TypeOf(v)
		if t == nil {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Fence")
		if fn, ok := obj.(*types.Func); ok {
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int64]) {
				return true
			}
		}
	}
	return false
}

// storeLocks returns the key families of the locks that guard a write to
// a store of record (SQL, gorm, ent, files) in some section: a cache
// written under such a lock elsewhere is ordered against those writes,
// so its fill is a protected write too.
func storeLocks(pass *analysis.Pass, res *section.Result, helpers *stores.Result) map[string]bool {
	out := map[string]bool{}
	for _, s := range res.Sections {
		fam := s.Lock.Key.Family()
		if fam == "" || out[fam] {
			continue
		}
		s.Inspect(func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || out[fam] {
				return !out[fam]
			}
			ws := helpers.Helper(pass.TypesInfo, call)
			if w := stores.Classify(pass.TypesInfo, res.Defs, call, nil); w != nil {
				ws = append(ws, w)
			}
			for _, w := range ws {
				if w.Kind != stores.Redis && w.Kind != stores.Fenced {
					out[fam] = true
				}
			}
			return true
		})
	}
	return out
}

// handedTo returns where the write w is sent: a radix action is a value
// built by radix.Cmd and sent by the call it is handed to (the client's
// Do, a pipeline, or a helper that runs the actions it gets), so a
// reviewer changes that call. Any other write is sent where it is made.
func handedTo(pass *analysis.Pass, w *stores.Write) ast.Node {
	if w.Cmd == nil || w.Cmd.Client != redismodel.Radix {
		return w.Call
	}
	for _, f := range pass.Files {
		if f.Pos() > w.Call.Pos() || w.Call.End() > f.End() {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, w.Call.Pos(), w.Call.End())
		for i, n := range path {
			if n != ast.Node(w.Call) || i+1 >= len(path) {
				continue
			}
			if outer, ok := path[i+1].(*ast.CallExpr); ok && slices.Contains(outer.Args, ast.Expr(w.Call)) {
				return outer
			}
		}
	}
	return w.Call
}

// rolledBack reports whether call is a statement of its own, its results
// thrown away (InsertLog(...); _ = InsertLog(...)), in a function literal
// handed to a transaction wrapper (a call named Transaction, Transact,
// TransactCtx, Trans, WithTx, InTx, ...), and the next statement of its
// block returns an error that is surely not nil: one made there
// (errors.New, xerr.NewErrCode), a package's sentinel, or a variable the
// enclosing if found not nil. The transaction rolls back, so the write
// never lands (a failure row logged on the path that then fails it). A
// write whose own error is returned (if err := w(); err != nil { return
// err }; err := w(); return err) commits when it succeeds.
func rolledBack(pass *analysis.Pass, call *ast.CallExpr) bool {
	info := pass.TypesInfo
	var path []ast.Node
	for _, f := range pass.Files {
		if f.Pos() <= call.Pos() && call.End() <= f.End() {
			path, _ = astutil.PathEnclosingInterval(f, call.Pos(), call.End())
		}
	}
	i := slices.IndexFunc(path, func(n ast.Node) bool { _, ok := n.(*ast.BlockStmt); return ok })
	if i < 1 {
		return false
	}
	block := path[i].(*ast.BlockStmt)
	stmt, ok := path[i-1].(ast.Stmt)
	if !ok || !discarded(stmt, call) {
		return false
	}
	idx := slices.Index(block.List, stmt)
	if idx < 0 || idx+1 >= len(block.List) {
		return false
	}
	ret, ok := block.List[idx+1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 || !surelyError(info, ret.Results[len(ret.Results)-1], path[i:]) {
		return false
	}
	// The block belongs to a function literal passed to a transaction
	// wrapper.
	for j, m := range path[i:] {
		lit, ok := m.(*ast.FuncLit)
		if !ok {
			continue
		}
		for _, outer := range path[i+j:] {
			if oc, ok := outer.(*ast.CallExpr); ok && slices.Contains(oc.Args, ast.Expr(lit)) {
				return transactionWrapper(oc)
			}
		}
		return false
	}
	return false
}

// discarded reports whether stmt is call alone, its results thrown away.
func discarded(stmt ast.Stmt, call *ast.CallExpr) bool {
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		return ast.Unparen(s.X) == call
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 || ast.Unparen(s.Rhs[0]) != call {
			return false
		}
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				return false
			}
		}
		return true
	}
	return false
}

// surelyError reports whether e, returned as an error, cannot be nil: an
// error made by a call, a package-level variable (a sentinel), or a
// variable an enclosing if (among outer) tested as not nil (err != nil,
// err == ErrNotFound).
func surelyError(info *types.Info, e ast.Expr, outer []ast.Node) bool {
	e = ast.Unparen(e)
	if t := info.TypeOf(e); t == nil || !types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		return true
	case *ast.SelectorExpr:
		v, ok := info.ObjectOf(e.Sel).(*types.Var)
		return ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	case *ast.Ident:
		v, ok := info.ObjectOf(e).(*types.Var)
		if !ok {
			return false
		}
		if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return true
		}
		isNil := func(x ast.Expr) bool { id, ok := ast.Unparen(x).(*ast.Ident); return ok && id.Name == "nil" }
		for _, n := range outer {
			is, ok := n.(*ast.IfStmt)
			if !ok {
				continue
			}
			b, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
			if !ok {
				continue
			}
			for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				id, ok := ast.Unparen(pair[0]).(*ast.Ident)
				if !ok || info.ObjectOf(id) != v {
					continue
				}
				if b.Op == token.NEQ && isNil(pair[1]) || b.Op == token.EQL && !isNil(pair[1]) {
					return true
				}
			}
		}
	}
	return false
}

// transactionWrapper reports whether call is named as running a
// transaction (db.Transaction, conn.TransactCtx, m.Trans, WithTx).
func transactionWrapper(call *ast.CallExpr) bool {
	var name string
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		name = f.Sel.Name
	case *ast.Ident:
		name = f.Name
	}
	name = strings.ToLower(name)
	return strings.HasPrefix(name, "trans") || strings.HasSuffix(name, "tx") || strings.Contains(name, "transaction")
}
