package locklease

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/docs"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/section"
)

//go:embed doc.go
var doc string

// Analyzer reports critical sections that can outlive their lock's lease.
var Analyzer = &analysis.Analyzer{
	Name:             "locklease",
	Doc:              docs.Extract(doc, "locklease"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/locklease/doc.go",
	Requires:         []*analysis.Analyzer{section.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[section.Analyzer].(*section.Result)
	watched := map[*ast.CallExpr]bool{}
	defer func() { swallowedRenewals(pass, res, watched) }()
	renewals := watchdogRenewals(pass, res)
	droppedAt := map[*ast.CallExpr]ast.Node{}
	for _, r := range renewals {
		watched[r.call] = true
		if at := dropped(pass, r); at != nil {
			droppedAt[r.call] = at
		}
	}
	for _, r := range renewals {
		if at := droppedAt[r.call]; at != nil && (r.inner == nil || droppedAt[r.inner] == nil) {
			pass.Report(analysis.Diagnostic{
				Pos: at.Pos(), End: at.End(),
				Related: []analysis.RelatedInformation{{Pos: r.call.Pos(), End: r.call.End(), Message: "the renewal"}},
				Message: fmt.Sprintf("this keep-alive renews with %s but drops the outcome: when a renewal fails (the key expired or another process holds it), "+
					"the holder is never told and keeps working without the lock; stop the work on failure (cancel its context, close a channel it watches), "+
					"or use safelock.WithAutoRenew and Lease.Done()", r.what),
			})
		}
	}
	reportedLoss := map[*ast.CallExpr]bool{}
	defer func() { droppedLossAnywhere(pass, reportedLoss) }()
	for _, s := range res.Sections {
		lk := s.Lock
		if lifecycle.IsTestFile(pass.Fset, lk.Acquire.Pos()) {
			continue
		}
		acquired := analysis.RelatedInformation{Pos: lk.Acquire.Pos(), End: lk.Acquire.End(), Message: "lock acquired here"}
		if lk.Lib == locklib.Rueidislock {
			// The loss context went to "_" while the section goes on with
			// the parent context, or runs its caller's callback.
			var goesOn, fix, relMsg string
			var at ast.Node
			if use := droppedLossContext(pass.TypesInfo, s); use != nil {
				at, relMsg = use, "the parent context is used here"
				goesOn = "the section goes on with " + types.ExprString(lk.ParentCtx) + ": once the lock is lost, this work runs on"
				fix = "keep the returned context and use it in the section"
			} else if call := droppedLossCallback(pass.TypesInfo, s); call != nil {
				at, relMsg = call, "the guarded work runs here"
				goesOn = "the section runs the caller's " + types.ExprString(call.Fun) + ", which is never told: once the lock is lost, that work runs on"
				fix = "keep the returned context and pass it to the callback"
			}
			if at != nil {
				reportedLoss[lk.Acquire] = true
				pass.Report(analysis.Diagnostic{
					Pos: lk.Acquire.Pos(), End: lk.Acquire.End(),
					Message: fmt.Sprintf("%s returns a context that is cancelled when the lock is lost, but it is assigned to _ "+
						"and %s while another process holds it; %s (or use safelock.Locker.Do)", lk.How, goesOn, fix),
					Related: []analysis.RelatedInformation{{Pos: at.Pos(), End: at.End(), Message: relMsg}},
				})
			}
			continue
		}
		ttl, ok := s.TTLValue(pass.TypesInfo, res.Defs)
		if !ok || lk.RenewUnknown || len(lk.Watches) > 0 || s.PeriodKey(pass.TypesInfo, res.Defs) {
			continue // a period's key: nobody else takes it once it lapsed
		}
		w, ok := longWait(s.Waits(pass.TypesInfo, res), ttl)
		if !ok {
			continue
		}
		related := []analysis.RelatedInformation{acquired}
		switch {
		case lk.AutoRenew == section.No && len(lk.Renewals) == 0:
			pass.Report(analysis.Diagnostic{
				Pos: w.At.Pos(), End: w.At.End(),
				Message: fmt.Sprintf("%s can outlive %s: the lock's TTL is %s and nothing renews it, "+
					"so it expires mid-section and another process enters while this one still works; "+
					"%s, or give the lock a TTL longer than the section",
					w.What, lk.Describe(), ttl, renewAdvice(lk.Lib)),
				Related: related,
			})
		case lk.Lib == locklib.Safelock && lk.AutoRenew == section.Yes:
			var msg string
			if lk.Call != nil && lk.Call.Fn != nil {
				msg = fmt.Sprintf("the %s callback never uses its context, which is cancelled when the lease is lost, yet waits in %s (longer than the %s TTL): "+
					"if a renewal fails, the section goes on without the lock; pass the callback's ctx to the long calls",
					lk.How, w.What, ttl)
			} else {
				msg = fmt.Sprintf("the lease from %s is renewed automatically but Lease.Done() is never watched, yet the section waits in %s (longer than the %s TTL): "+
					"if a renewal fails, the lease is lost and the section goes on without the lock; "+
					"select on Lease.Done() around long work, or use safelock.Locker.Do and its ctx",
					lk.How, w.What, ttl)
			}
			pass.Report(analysis.Diagnostic{Pos: w.At.Pos(), End: w.At.End(), Message: msg, Related: related})
		}
	}
	return nil, nil
}

// longWait returns the first wait (in source order) longer than ttl.
func longWait(waits []section.Wait, ttl time.Duration) (section.Wait, bool) {
	sort.Slice(waits, func(i, j int) bool { return waits[i].At.Pos() < waits[j].At.Pos() })
	for _, w := range waits {
		if w.D > ttl {
			return w, true
		}
	}
	return section.Wait{}, false
}

func renewAdvice(lib locklib.Lib) string {
	switch lib {
	case locklib.Redsync:
		return "extend it (Mutex.Extend) while the work runs, or use safelock.Locker.Do, which renews and cancels its ctx when the lease is lost"
	case locklib.Redislock:
		return "refresh it (Lock.Refresh) while the work runs, or use safelock.Locker.Do, which renews and cancels its ctx when the lease is lost"
	case locklib.Safelock:
		return "use safelock.WithAutoRenew (or Locker.Do) and watch Lease.Done()"
	}
	return "use safelock.Locker.Do, which renews the lease and cancels its ctx when the lease is lost"
}

// droppedLossContext returns a use, inside the section, of the context
// passed to a rueidislock acquire whose returned context went to "_".
func droppedLossContext(info *types.Info, s *section.Section) ast.Node {
	lk := s.Lock
	blank, ok := lk.LostCtx.(*ast.Ident)
	if !ok || blank.Name != "_" {
		return nil
	}
	// The parent is a variable (ctx) or a field of one (l.ctx, a go-zero
	// logic's context): a use is the same variable, or the same field of
	// the same variable.
	var base, field types.Object
	switch p := ast.Unparen(lk.ParentCtx).(type) {
	case *ast.Ident:
		base = info.Uses[p]
	case *ast.SelectorExpr:
		id, ok := ast.Unparen(p.X).(*ast.Ident)
		sel, isField := info.Selections[p]
		if !ok || !isField || sel.Kind() != types.FieldVal {
			return nil
		}
		base, field = info.Uses[id], sel.Obj()
	}
	if base == nil {
		return nil
	}
	var use ast.Node
	s.Inspect(func(n ast.Node) bool {
		var at ast.Node
		switch n := n.(type) {
		case *ast.Ident:
			if field == nil && info.Uses[n] == base {
				at = n
			}
		case *ast.SelectorExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && field != nil && info.Uses[id] == base {
				if sel, ok := info.Selections[n]; ok && sel.Obj() == field {
					at = n
				}
			}
		}
		if at != nil && (use == nil || at.Pos() < use.Pos()) {
			use = at
		}
		return true
	})
	return use
}

// droppedLossCallback returns, when the rueidislock acquire's loss
// context went to "_", a call in the section of a func-typed parameter of
// the enclosing function: a lock helper running its caller's work
// (LockOnce(ctx, key, fn) { _, cancel, err := l.TryWithContext(ctx, key);
// ...; return fn() }), which then can never learn the lock was lost.
func droppedLossCallback(info *types.Info, s *section.Section) *ast.CallExpr {
	lk := s.Lock
	if blank, ok := lk.LostCtx.(*ast.Ident); !ok || blank.Name != "_" {
		return nil
	}
	var found *ast.CallExpr
	s.Inspect(func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found != nil {
			return found == nil
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			return true
		}
		if _, isFunc := v.Type().Underlying().(*types.Signature); isFunc && isParamOf(s, v) {
			found = call
		}
		return true
	})
	return found
}

// isParamOf reports whether v is a parameter of the function holding
// the section.
func isParamOf(s *section.Section, v *types.Var) bool {
	var ft *ast.FuncType
	switch f := s.Func.(type) {
	case *ast.FuncDecl:
		ft = f.Type
	case *ast.FuncLit:
		ft = f.Type
	}
	if ft == nil || ft.Params == nil {
		return false
	}
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			if n.Pos() == v.Pos() {
				return true
			}
		}
	}
	return false
}

// droppedLossAnywhere reports a rueidislock acquire whose lock-loss
// context goes to "_" where no section was judged (a Lock method of the
// project's own wrapper that keeps only the cancel func): nobody can ever
// learn that the lock was lost.
func droppedLossAnywhere(pass *analysis.Pass, done map[*ast.CallExpr]bool) {
	for _, f := range pass.Files {
		if lifecycle.IsTestFile(pass.Fset, f.Pos()) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 {
				return true
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || done[call] {
				return true
			}
			c := locklib.Classify(pass.TypesInfo, call)
			if c == nil || c.Lib != locklib.Rueidislock || c.Role != locklib.Acquire || c.LostCtx >= len(as.Lhs) {
				return true
			}
			if id, ok := as.Lhs[c.LostCtx].(*ast.Ident); !ok || id.Name != "_" {
				return true
			}
			if c.Handle >= len(as.Lhs) || !outlives(pass.TypesInfo, f, as.Lhs[c.Handle]) {
				return true // the lock ends in this function: its section is judged above
			}
			pass.Report(analysis.Diagnostic{
				Pos: call.Pos(), End: call.End(),
				Message: fmt.Sprintf("%s returns a context that is cancelled when the lock is lost, but it is assigned to _: "+
					"nothing can learn that the lock is gone, so the work it guards goes on while another process holds it; "+
					"keep the context and hand it to the work (or use safelock.Locker.Do)", c.Name()),
			})
			return true
		})
	}
}

// namedResultReturned reports whether v, used at id, is a named result of
// the function around id that a bare return of that function hands back
// (_, unlock, err = locker.TryWithContext(ctx, key); ...; return).
func namedResultReturned(info *types.Info, f *ast.File, id *ast.Ident, v types.Object) bool {
	path, _ := astutil.PathEnclosingInterval(f, id.Pos(), id.End())
	for _, n := range path {
		var ft *ast.FuncType
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft, body = n.Type, n.Body
		case *ast.FuncLit:
			ft, body = n.Type, n.Body
		default:
			continue
		}
		if ft.Results == nil || body == nil {
			return false
		}
		named := false
		for _, field := range ft.Results.List {
			for _, name := range field.Names {
				if info.Defs[name] == v {
					named = true
				}
			}
		}
		if !named {
			return false
		}
		bare := false
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // its returns are its own
			case *ast.ReturnStmt:
				bare = bare || len(n.Results) == 0
			}
			return !bare
		})
		return bare
	}
	return false
}

// inField reports whether e is a field or an element of one (l.cancel,
// l.byKey[key]).
func inField(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		return true
	case *ast.IndexExpr:
		return inField(e.X)
	}
	return false
}

func isSyncMapStore(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch fn.Name() {
	case "Store", "LoadOrStore", "Swap":
		return true
	}
	return false
}

// outlives reports whether the cancel func held by e is stored in a field
// (directly, in a map kept in one, or in a sync.Map) or returned (also as
// a named result that a bare return hands back): the lock outlives the
// function that took it, so its work runs elsewhere.
func outlives(info *types.Info, f *ast.File, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v := info.ObjectOf(id)
	if v == nil {
		return false
	}
	if namedResultReturned(info, f, id, v) {
		return true
	}
	found := false
	uses := func(x ast.Expr) bool {
		hit := false
		ast.Inspect(x, func(n ast.Node) bool {
			if i, ok := n.(*ast.Ident); ok && info.Uses[i] == v {
				hit = true
			}
			return !hit
		})
		return hit
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if i < len(n.Rhs) && uses(n.Rhs[i]) && inField(l) {
					found = true
				}
			}
		case *ast.CallExpr:
			// k.locks.Store(key, cancel) on a sync.Map field.
			if fn, _ := typeutil.Callee(info, n).(*types.Func); fn != nil && isSyncMapStore(fn) {
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && inField(sel.X) {
					for _, a := range n.Args {
						if uses(a) {
							found = true
						}
					}
				}
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if uses(r) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
