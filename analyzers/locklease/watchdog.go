package locklease

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/section"
)

// renewal is a call that extends a lock from a watchdog loop.
type renewal struct {
	call *ast.CallExpr
	what string // "EXPIRE of lock l.key", "Mutex.Extend"
	// read is the GET of the lock before a raw renewal in its function
	// (lifecycle's ReadBefore), else the first one after it, or nil.
	read *ast.CallExpr
	// reply: the call answers an EXPIRE without an owner check, whose
	// value (false, 0: the key is gone) is the only word of a lost lock;
	// its error says nothing of ownership.
	reply bool
	// inner is the renewal inside the helper this call runs (the site of
	// an op summarised from a helper), or nil: when that one is reported,
	// this call is not reported again.
	inner *ast.CallExpr
}

// watchdogRenewals lists the renewals made in a loop of a goroutine or of
// a function named as a watchdog: raw EXPIRE/owner-checked scripts of a
// lock (lifecycle) and library Extend/Refresh calls.
func watchdogRenewals(pass *analysis.Pass, res *section.Result) []renewal {
	var out []renewal
	seen := map[*ast.CallExpr]bool{}
	// Which functions goroutines start, and which are called from loops:
	// a path per call, so computed only for a package that renews.
	var started, fromLoop, called map[*ast.FuncDecl]bool
	add := func(call *ast.CallExpr, what string, inGo bool, read *ast.CallExpr, reply bool, inner *ast.CallExpr) {
		if seen[call] || lifecycle.IsTestFile(pass.Fset, call.Pos()) {
			return
		}
		if started == nil {
			started, fromLoop, called = watchdogFuncs(pass)
		}
		path := enclosing(pass, call)
		fd := declOf(path)
		// A function with a ticker loop that nothing here calls is started
		// elsewhere (go cache.ContinueLock(lock, stop) in another package).
		periodic := fd != nil && !called[fd] && tickerLoop(pass.TypesInfo, path)
		looping := inLoop(path) && (inGo || goStarted(path) || watchdogNamed(path) || fd != nil && started[fd] || periodic) ||
			goStarted(path) // a goroutine that renews once is a keep-alive too
		helper := fd != nil && fromLoop[fd] && !inFuncLit(path) // a renewTTL called from the loop
		// An exported step named as a renewal that nothing here calls (an
		// elector's KeepAlive, run on another package's ticker): each
		// call is one round of a keep-alive.
		step := fd != nil && fd.Name.IsExported() && !called[fd] && !inFuncLit(path) && renewalStep(fd)
		if !looping && !helper && !step {
			return
		}
		seen[call] = true
		out = append(out, renewal{call: call, what: what, read: read, reply: reply, inner: inner})
	}
	// Calls that take the lock as well as extend it (a TryLock that
	// refreshes the lock it holds, or else obtains it): their outcome is
	// an acquire's, "held now or not", which lockresult judges.
	takes := map[*ast.CallExpr]bool{}
	if lc := res.Lifecycle; lc != nil {
		for _, op := range lc.Ops {
			if op.Kind == lifecycle.Acquire && op.Via != nil {
				takes[op.Call] = true
			}
		}
	}
	renew := func(op *lifecycle.Op) {
		if op.Kind != lifecycle.Expire || op.Via != nil && takes[op.Call] {
			return
		}
		if op.Judged && (op.Via == nil || op.Via.Pkg() == pass.Pkg || op.Checked || !inLoop(enclosing(pass, op.Call))) {
			// Judged in the helper's package; but a loop here that calls a
			// one-shot renewal helper of another package
			// (store.RenewLock) is a keep-alive that package cannot see.
			// Not for an owner-checked renewal: its reply is the helper's
			// to read (Renew clearing isLeader on 0), judged there.
			return
		}
		// The call in the loop (_ = r.delayExpire(ctx)), and the EXPIRE
		// inside a helper of this package (a watchdog started with go
		// start(ctx, key)): whichever drops the outcome.
		var read *ast.CallExpr
		if op.ReadBefore != nil && op.ReadBefore.Via == nil && op.Via == nil {
			read = op.ReadBefore.Call
		} else if op.Via == nil && op.Lock() != nil {
			// A GET of the lock after the renewal in the same step (renew,
			// then check who holds it): its test hears the loss in this
			// round.
			for _, o := range op.Lock().Ops {
				if o.Kind == lifecycle.Read && o.Via == nil && o.In.Decl == op.In.Decl && o.In.Lit == op.In.Lit && o.Pos() > op.Pos() {
					read = o.Call
					break
				}
			}
		}
		var inner *ast.CallExpr
		if op.Site != nil && op.Site != op.Call {
			inner = op.Site
		}
		add(op.Call, op.Describe()+" of lock "+op.KeyText(), op.In.InGo, read, !op.Checked && strings.Contains(op.Command, "EXPIRE"), inner)
		if inner != nil {
			add(op.Site, op.DescribeAtSite()+" of lock "+op.KeyText(), false, nil, false, nil)
		}
	}
	if lc := res.Lifecycle; lc != nil {
		for _, l := range lc.Locks {
			if l.IsLock(pass) {
				for _, op := range l.Ops {
					renew(op)
				}
			}
		}
		// An owner-checked extend names a lock by itself, joined or not.
		for _, op := range lc.Ops {
			if op.Checked && op.Lock() == nil {
				renew(op)
			}
		}
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if c := locklib.Classify(pass.TypesInfo, call); c != nil && c.Role == locklib.Renew {
				add(call, c.Name(), false, nil, false, nil)
			} else if name := lockRenewCall(pass.TypesInfo, call); name != "" {
				add(call, name, false, nil, false, nil)
			}
			return true
		})
	}
	return out
}

// lockRenewCall names a call of a method named like a renewal (Refresh,
// Extend, Renew, KeepAlive) on a type named as a lock (l.refresh(ctx) on
// *Lock, lock.delegate.ExtendContext(ctx) on a RedisLock interface) or
// declared in a package so named (a lock package's Manager): the
// project's own renewal, whatever runs behind it. "" otherwise.
func lockRenewCall(info *types.Info, call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return ""
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || sig.Results().Len() == 0 {
		return ""
	}
	name := strings.ToLower(fn.Name())
	renews := false
	for _, w := range []string{"refresh", "extend", "renew", "keepalive", "delayexpire"} {
		renews = renews || strings.Contains(name, w)
	}
	if !renews {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return ""
	}
	// The type names a lock, or its package does (lock.Manager,
	// distlock.Client; a package named lease may well hold DHCP leases).
	tn := strings.ToLower(named.Obj().Name())
	pn := ""
	if named.Obj().Pkg() != nil {
		pn = strings.ToLower(named.Obj().Pkg().Name())
	}
	if !strings.Contains(tn, "lock") && !strings.Contains(tn, "mutex") && !strings.Contains(tn, "lease") &&
		!strings.Contains(pn, "lock") && !strings.Contains(pn, "mutex") {
		return ""
	}
	return named.Obj().Name() + "." + fn.Name()
}

// watchdogFuncs returns the declared functions the package starts with
// go (go l.watchdog(ctx)), those called from a loop that runs in a
// goroutine or such a function (a renewTTL helper of a ticker loop), and
// all those it calls (go statements count: they call too).
func watchdogFuncs(pass *analysis.Pass) (started, fromLoop, called map[*ast.FuncDecl]bool) {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	started, fromLoop, called = map[*ast.FuncDecl]bool{}, map[*ast.FuncDecl]bool{}, map[*ast.FuncDecl]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				if fn, ok := typeutil.Callee(pass.TypesInfo, g.Call).(*types.Func); ok && decls[fn.Origin()] != nil {
					started[decls[fn.Origin()]] = true
				}
			}
			return true
		})
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
			if !ok || decls[fn.Origin()] == nil {
				return true
			}
			called[decls[fn.Origin()]] = true
			path := enclosing(pass, call)
			fd := declOf(path)
			if inLoop(path) && (goStarted(path) || watchdogNamed(path) || fd != nil && started[fd]) {
				fromLoop[decls[fn.Origin()]] = true
			}
			return true
		})
	}
	return started, fromLoop, called
}

// declOf returns the declared function around a path, nil inside none.
func declOf(path []ast.Node) *ast.FuncDecl {
	for _, n := range path {
		if fd, ok := n.(*ast.FuncDecl); ok {
			return fd
		}
	}
	return nil
}

// inFuncLit reports whether a function literal encloses the path's node.
func inFuncLit(path []ast.Node) bool {
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncLit:
			return true
		case *ast.FuncDecl:
			return false
		}
	}
	return false
}

// enclosing returns the nodes around call, innermost first.
func enclosing(pass *analysis.Pass, call *ast.CallExpr) []ast.Node {
	for _, f := range pass.Files {
		if f.FileStart <= call.Pos() && call.Pos() < f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, call.Pos(), call.End())
			return path
		}
	}
	return nil
}

// inLoop reports whether a for or range loop of the same function
// encloses the call.
func inLoop(path []ast.Node) bool {
	for _, n := range path {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
	}
	return false
}

// tickerLoop reports whether the innermost loop around the call waits
// for a ticker or timer each round (for range t.C, a select case on t.C
// or time.After): a renewal on a period is a keep-alive, whoever starts
// its function (go cache.ContinueLock(lock, stop) in another package).
func tickerLoop(info *types.Info, path []ast.Node) bool {
	for _, n := range path {
		switch loop := n.(type) {
		case *ast.RangeStmt:
			return timerChan(info, loop.X) || waitsOnTimer(info, loop.Body)
		case *ast.ForStmt:
			return waitsOnTimer(info, loop.Body)
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
	}
	return false
}

// waitsOnTimer reports whether body, outside nested loops and functions,
// has a select case that receives from a ticker's or timer's channel or
// from time.After/time.Tick.
func waitsOnTimer(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.CommClause:
			var recv ast.Expr
			switch c := n.Comm.(type) {
			case *ast.ExprStmt:
				recv = c.X
			case *ast.AssignStmt:
				if len(c.Rhs) == 1 {
					recv = c.Rhs[0]
				}
			}
			if u, ok := ast.Unparen(recv).(*ast.UnaryExpr); ok && u.Op == token.ARROW && timerChan(info, u.X) {
				found = true
			}
		}
		return true
	})
	return found
}

// timerChan reports whether e is a time.Ticker's or Timer's C, or a call of
// time.After or time.Tick.
func timerChan(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if e.Sel.Name != "C" {
			return false
		}
		t := info.TypeOf(e.X)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && (n.Obj().Name() == "Ticker" || n.Obj().Name() == "Timer")
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, e).(*types.Func)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "time" && (fn.Name() == "After" || fn.Name() == "Tick")
	}
	return false
}

// goStarted reports whether the function literal around the call is
// started with go.
func goStarted(path []ast.Node) bool {
	for i, n := range path {
		if lit, ok := n.(*ast.FuncLit); ok {
			if i+2 < len(path) {
				if call, ok := path[i+1].(*ast.CallExpr); ok && call.Fun == lit {
					_, isGo := path[i+2].(*ast.GoStmt)
					return isGo
				}
			}
			return false
		}
	}
	return false
}

// renewalStep reports whether fd is named as one step of a keep-alive:
// KeepAlive, Renew, Heartbeat.
func renewalStep(fd *ast.FuncDecl) bool {
	name := strings.ToLower(fd.Name.Name)
	return strings.Contains(name, "keepalive") || strings.Contains(name, "renew") || strings.Contains(name, "heartbeat")
}

// watchdogNamed reports whether the declared function around the call is
// named as a keep-alive loop.
func watchdogNamed(path []ast.Node) bool {
	for _, n := range path {
		if fd, ok := n.(*ast.FuncDecl); ok {
			name := strings.ToLower(fd.Name.Name)
			for _, w := range []string{"watchdog", "watch", "renew", "keepalive", "keep", "refresh", "extend", "heartbeat", "daemon"} {
				if strings.Contains(name, w) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// dropped returns where the outcome of a renewal is thrown away, or nil
// when it may reach someone: the start of the if chain testing the
// lock-lost reply (n == 0, !ok) whose branches only log, return nothing,
// break or go on; else the call itself (discarded, assigned to blanks,
// only logged, or only its error tested: an error says nothing of
// ownership).
func dropped(pass *analysis.Pass, r renewal) ast.Node {
	info := pass.TypesInfo
	path := enclosing(pass, r.call)
	var body *ast.BlockStmt
	for _, n := range path {
		switch f := n.(type) {
		case *ast.FuncLit:
			body = f.Body
		case *ast.FuncDecl:
			body = f.Body
		}
		if body != nil {
			break
		}
	}
	if body == nil {
		return nil
	}
	if r.read != nil && toldOnRead(pass, body, r.read) {
		return nil
	}
	// Climb from the call through reply accessors (.Result(), .Val(),
	// .Err(), redis.Int(...)) to the expression's statement.
	var cur ast.Node = r.call
	var cond *ast.IfStmt
	vars := map[types.Object]bool{}
	// errOnly: the EXPIRE's reply went to a blank, and only its error is
	// kept (if _, err := kv.Expire(key, ttl); err != nil { return err }):
	// whatever the error reaches, a key found gone reaches nobody.
	errOnly := false
climb:
	for i := 1; i < len(path); i++ {
		switch p := path[i].(type) {
		case *ast.ParenExpr, *ast.SelectorExpr, *ast.UnaryExpr, *ast.BinaryExpr:
			cur = p
		case *ast.CallExpr:
			if e, _ := cur.(ast.Expr); p.Fun == cur || clientHelper(info, p) || e != nil && section.SendsBuilt(info, p, e) {
				cur = p // c.Do(ctx, built) is the reply of rueidis's built command
				continue
			}
			if isLog(info, p) {
				return r.call // only logged
			}
			return nil // handed to a function that may act on it
		case *ast.ExprStmt:
			if keepAliveHelper(pass, r.call) && hearsReturn(pass, body, path[i+1:], p) {
				return nil // the helper returns when the lock is lost, and then the holder is told
			}
			return r.call
		case *ast.AssignStmt:
			errOnly = r.reply && blankValue(info, p, cur)
			for _, l := range p.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					if o := info.ObjectOf(id); o != nil {
						vars[o] = true
					}
				} else if !ok {
					return nil // stored in a field or element: someone may read it
				}
			}
			if len(vars) == 0 {
				return r.call
			}
			if i+1 < len(path) {
				if ifs, ok := path[i+1].(*ast.IfStmt); ok && ifs.Init == p {
					cond = ifs
				}
			}
			break climb
		case *ast.IfStmt:
			if p.Cond == cur {
				cond = p
			}
			break climb
		case *ast.ReturnStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt:
			return nil // the outcome goes to the caller or a channel
		default:
			break climb
		}
	}
	if errOnly {
		return r.call
	}
	if cond == nil && len(vars) == 0 {
		return nil
	}
	// Every if testing the outcome, and every other read of it.
	reaches := false
	var atValue, lostAt ast.Node           // lostAt: the test of a lost lock whose branch tells nobody
	chain := map[*ast.IfStmt]*ast.IfStmt{} // else-if -> the if that starts its chain
	logged := logEntries(info, body)
	ast.Inspect(body, func(n ast.Node) bool {
		if reaches {
			return false
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			head := n
			if h := chain[n]; h != nil {
				head = h
			}
			if e, ok := n.Else.(*ast.IfStmt); ok {
				chain[e] = head // if err != nil {...} else if n == 0 {...}: one handling
			}
			if n == cond || section.Mentions(info, n.Cond, vars) {
				if lostAt == nil && lostBranchSilent(pass, body, path, n, vars) {
					lostAt = n.Cond
				}
				if signals(pass, n.Body) || n.Else != nil && signals(pass, n.Else) {
					reaches = true
				}
				if section.Returns(n.Body) && deferSignals(pass, body) {
					reaches = true // the return runs a deferred cancel(): the holder hears
				}
				if section.Returns(n.Body) && callersHearReturn(pass, path) {
					reaches = true // go func() { defer cancel(); keepUp(ctx, lock) }()
				}
				if section.Returns(n.Body) && closesLostChannel(pass, path) {
					reaches = true // defer close(lost), lost being the channel the acquire hands its caller
				}
				if atValue == nil && mentionsValue(info, n.Cond, vars) {
					atValue = head.Cond
				}
				return true
			}
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if section.Mentions(info, e, vars) {
					reaches = true
				}
			}
		case *ast.SendStmt:
			if section.Mentions(info, n.Value, vars) {
				reaches = true
			}
		case *ast.CallExpr:
			if !isLog(info, n) && !logged[n] && n != r.call && !errorTest(info, n) {
				for _, a := range n.Args {
					if section.Mentions(info, a, vars) && !clientHelper(info, n) {
						reaches = true // handed on: a callback or a channel helper
					}
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if _, isID := l.(*ast.Ident); !isID && i < len(n.Rhs) && section.Mentions(info, n.Rhs[i], vars) {
					reaches = true // stored where the holder may look
				}
			}
		}
		return true
	})
	switch {
	case reaches && lostAt != nil:
		return r.call // the branch for a lost lock tells nobody, whatever the others do
	case reaches:
		return nil
	case atValue != nil:
		return atValue // the lock-lost reply is dropped at its test
	}
	return r.call // an error alone says nothing of ownership: the renewal drops it
}

// deferSignals reports whether the function with body defers a signal to
// the holder (defer cancel(), a deferred literal that cancels, sends or
// stores atomically): every return tells it. A deferred close(done) is
// the goroutine saying it has ended, to whoever stops it; a deferred
// Unlock of a Go mutex, a Release or a wg.Done tells the holder nothing.
func deferSignals(pass *analysis.Pass, body *ast.BlockStmt) bool {
	return defers(body, func(call *ast.CallExpr) bool { return tellsHolder(pass, call) })
}

// defers reports whether the function with body defers a call that
// matches (not counting defers of function literals inside it).
func defers(body *ast.BlockStmt, match func(*ast.CallExpr) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			found = found || match(n.Call)
		}
		return !found
	})
	return found
}

// tellsHolder reports whether n sends, calls a func value (a cancel),
// cancels or notifies by method, or stores with sync/atomic.
func tellsHolder(pass *analysis.Pass, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.SendStmt:
			found = true
		case *ast.CallExpr:
			if fl, ok := ast.Unparen(m.Fun).(*ast.FuncLit); ok {
				found = found || tellsHolder(pass, fl.Body)
				return false
			}
			switch fn := typeutil.Callee(pass.TypesInfo, m).(type) {
			case *types.Var:
				found = found || notifies(fn) // cancel(), l.onLost(); a later sibling must not undo it
			case *types.Func:
				if fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" {
					found = true
				}
				switch fn.Name() {
				case "Cancel", "cancel", "Notify", "notify", "Signal", "Broadcast":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// blankValue reports whether as assigns the value result of the (value,
// error) pair rhs returns to a blank and keeps only the error.
func blankValue(info *types.Info, as *ast.AssignStmt, rhs ast.Node) bool {
	e, ok := rhs.(ast.Expr)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != e || len(as.Lhs) != 2 {
		return false
	}
	tup, ok := info.TypeOf(e).(*types.Tuple)
	if !ok || tup.Len() != 2 || !types.Identical(tup.At(1).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	b, ok := tup.At(0).Type().Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsBoolean|types.IsInteger) == 0 {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	return ok && id.Name == "_"
}

// toldOnRead reports whether the function around a renewal reads the
// lock first (read, a GET) and tells the holder on some test of that
// read's outcome (val != token { cancel() }, or an else that sets
// s.isLeader = false; see signals), the key found gone included: the step
// finds a lost lock by its own owner check, so a dropped renewal outcome
// loses nothing that the next step does not find.
func toldOnRead(pass *analysis.Pass, body *ast.BlockStmt, read *ast.CallExpr) bool {
	info := pass.TypesInfo
	vars := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		contains := false
		for _, e := range as.Rhs {
			ast.Inspect(e, func(x ast.Node) bool {
				contains = contains || x == read
				return !contains
			})
		}
		if contains {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					if o := info.ObjectOf(id); o != nil {
						vars[o] = true
					}
				}
			}
		}
		return true
	})
	if len(vars) == 0 {
		return false
	}
	told := false
	ast.Inspect(body, func(n ast.Node) bool {
		if ifs, ok := n.(*ast.IfStmt); ok && section.Mentions(info, ifs.Cond, vars) &&
			(signals(pass, ifs.Body) || ifs.Else != nil && signals(pass, ifs.Else)) {
			told = true
		}
		return !told
	})
	return told && !goneUntold(pass, body, vars)
}

// goneUntold reports whether the first test of the read's error that
// takes the nil reply (the key is gone: err != nil, err == redis.Nil,
// errors.Is(err, redis.Nil)) leads to a branch that tells nobody (if err
// != nil { return }): a lost lock then shows as an error, not as another
// token, and the owner check finds only a rival holder.
func goneUntold(pass *analysis.Pass, body *ast.BlockStmt, vars map[types.Object]bool) bool {
	info := pass.TypesInfo
	errVars := map[types.Object]bool{}
	for v := range vars {
		if types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
			errVars[v] = true
		}
	}
	if len(errVars) == 0 {
		return false // the error is not kept: a key gone reads as a value that is not ours
	}
	untold, decided := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if decided || !ok {
			return !decided
		}
		inBody, takes := takesNilReply(info, ifs.Cond, errVars)
		if !takes {
			return true
		}
		decided = true
		branch := ast.Node(ifs.Else)
		if inBody {
			branch = ifs.Body
		}
		untold = branch == nil || !signals(pass, branch)
		return false
	})
	return untold
}

// takesNilReply reports whether cond tests one of errVars so that the
// nil reply (redis.Nil, redigo's ErrNil) decides it, and whether that
// reply runs the if's body (true) or its else (false).
func takesNilReply(info *types.Info, cond ast.Expr, errVars map[types.Object]bool) (inBody, takes bool) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			in, ok := takesNilReply(info, c.X, errVars)
			return !in, ok
		}
	case *ast.BinaryExpr:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return false, false
		}
		x, y := ast.Unparen(c.X), ast.Unparen(c.Y)
		if !section.Mentions(info, x, errVars) {
			x, y = y, x
		}
		if _, isID := x.(*ast.Ident); !isID || !section.Mentions(info, x, errVars) {
			return false, false
		}
		if id, ok := y.(*ast.Ident); ok && id.Name == "nil" {
			return c.Op == token.NEQ, true // err != nil: the nil reply is an error too
		}
		if nilReply(y) {
			return c.Op == token.EQL, true
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, c).(*types.Func)
		if fn == nil || len(c.Args) == 0 || !section.Mentions(info, c.Args[0], errVars) {
			return false, false
		}
		if errorTest(info, c) && fn.Name() == "Is" && len(c.Args) == 2 && nilReply(ast.Unparen(c.Args[1])) {
			return true, true
		}
		if strings.Contains(strings.ToLower(fn.Name()), "nil") { // rueidis.IsRedisNil(err)
			return true, true
		}
	}
	return false, false
}

// nilReply reports whether e names a client's nil-reply error
// (redis.Nil, redis.ErrNil, valkey.Nil).
func nilReply(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "Nil" || e.Sel.Name == "ErrNil"
	case *ast.Ident:
		return e.Name == "Nil" || e.Name == "ErrNil"
	}
	return false
}

// mentionsValue reports whether e reads one of vars that is not an error.
func mentionsValue(info *types.Info, e ast.Node, vars map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && vars[info.Uses[id]] {
			if t := info.Uses[id].Type(); t != nil && !types.Identical(t, types.Universe.Lookup("error").Type()) {
				found = true
			}
		}
		return !found
	})
	return found
}

// signals reports whether a branch tells someone the lock is gone: it
// sends on or closes a channel, calls a func value (a cancel), sets a
// field or package variable, uses sync/atomic, calls a method named
// Cancel/Stop/Close/..., panics or exits.
func signals(pass *analysis.Pass, n ast.Node) bool {
	info := pass.TypesInfo
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			found = true
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if id, ok := r.(*ast.Ident); !ok || id.Name != "nil" {
					found = true // an error or a result for the caller
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				switch x := l.(type) {
				case *ast.SelectorExpr:
					found = !onlyReadOnRelease(pass, x)
				case *ast.IndexExpr, *ast.StarExpr:
					found = true
				case *ast.Ident:
					if v, ok := info.Uses[x].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
						found = true
					}
				}
			}
		case *ast.CallExpr:
			switch fn := typeutil.Callee(info, n).(type) {
			case *types.Builtin:
				found = fn.Name() == "close" || fn.Name() == "panic"
			case *types.Var:
				found = notifies(fn) // cancel(), l.onLost()
			case *types.Func:
				if isTimerMethod(fn) {
					break // stopping the keep-alive's own ticker tells no one
				}
				if fn.Pkg() != nil && (fn.Pkg().Path() == "sync/atomic" || fn.Pkg().Path() == "os" && fn.Name() == "Exit") {
					found = true
				}
				if fn.Pkg() != nil && fn.Pkg().Path() == "log" && (strings.HasPrefix(fn.Name(), "Fatal") || strings.HasPrefix(fn.Name(), "Panic")) {
					found = true
				}
				switch fn.Name() {
				case "Cancel", "cancel", "Stop", "stop", "Close", "close", "Signal", "Notify", "notify", "Unlock", "Release", "Store", "Broadcast":
					found = true
				}
				found = found || handlesLoss(fn.Name())
			}
		}
		return !found
	})
	return found
}

// handlesLoss reports whether a function's name says it deals with the
// lock's loss (handleLeadershipLoss, onLockLost, stepDown, demote,
// resign): what it does is the holder's business, told by its name. A
// name that only records or logs the loss (recordLoss, logLost) tells
// nobody.
func handlesLoss(name string) bool {
	n := strings.ToLower(name)
	for _, p := range []string{"record", "log", "count", "metric", "observe", "print", "trace"} {
		if strings.HasPrefix(n, p) {
			return false
		}
	}
	for _, w := range []string{"lost", "loss", "stepdown", "demote", "resign"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// funcDecl returns the declaration of fn among the package's files.
func funcDecl(pass *analysis.Pass, fn *types.Func) *ast.FuncDecl {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && pass.TypesInfo.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// keepAliveHelper reports whether call runs a function of this package
// that returns nothing and loops (go func() { defer cancel(); keepUp(ctx,
// lock) }()): the renewal loop is inside it, and its return is the word
// of a loss.
func keepAliveHelper(pass *analysis.Pass, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() != pass.Pkg || fn.Type().(*types.Signature).Results().Len() != 0 {
		return false
	}
	if fd := funcDecl(pass, fn); fd != nil && fd.Body != nil {
		return loops(fd.Body)
	}
	return false
}

// loops reports whether body has a for or range loop of its own (not in
// a function literal).
func loops(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}

// callersHearReturn reports whether the renewal at the end of path is in
// a loop of a function of this package that returns nothing, not in a
// literal, and whose every call (there is one at least) is a statement
// whose caller hears it return (hearsReturn). Then a failure branch that
// returns, leaving the loop, tells the holder through the caller.
func callersHearReturn(pass *analysis.Pass, path []ast.Node) bool {
	fd := declOf(path)
	if fd == nil || inFuncLit(path) || !inLoop(path) {
		return false
	}
	fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok || fn.Type().(*types.Signature).Results().Len() != 0 {
		return false
	}
	heard := true
	calls := forEachCall(pass, fn, func(call *ast.CallExpr) {
		cp := enclosing(pass, call)
		if len(cp) < 3 {
			heard = false
			return
		}
		st, ok := cp[1].(*ast.ExprStmt)
		var body *ast.BlockStmt
		for _, p := range cp {
			if lit, isLit := p.(*ast.FuncLit); isLit {
				body = lit.Body
				break
			}
			if d, isDecl := p.(*ast.FuncDecl); isDecl {
				body = d.Body
				break
			}
		}
		if !ok || body == nil || !hearsReturn(pass, body, cp[2:], st) {
			heard = false
		}
	})
	return calls > 0 && heard
}

// forEachCall calls f with every call of fn in the package's files and
// returns how many there are.
func forEachCall(pass *analysis.Pass, fn *types.Func, f func(*ast.CallExpr)) int {
	calls := 0
	for _, file := range pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && typeutil.Callee(pass.TypesInfo, call) == fn {
				calls++
				f(call)
			}
			return true
		})
	}
	return calls
}

// closesLostChannel reports whether the keep-alive function around path
// defers close(p) of a channel parameter p that every caller passes from
// a variable its own function returns: tryAcquire makes lost, starts go
// extend(mutex, lost, stop) and returns lost to the holder, so extend's
// return closes the holder's lost channel. (A deferred close of a channel
// only the releaser waits on says the goroutine ended, nothing more.)
func closesLostChannel(pass *analysis.Pass, path []ast.Node) bool {
	fd := declOf(path)
	if fd == nil {
		return false
	}
	if inFuncLit(path) {
		return litClosesReturned(pass, path, fd)
	}
	fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	params := fn.Type().(*types.Signature).Params()
	closed := -1
	defers(fd.Body, func(call *ast.CallExpr) bool {
		b, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Builtin)
		if !ok || b.Name() != "close" || len(call.Args) != 1 {
			return false
		}
		id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
		if !ok {
			return false
		}
		for i := 0; i < params.Len(); i++ {
			if pass.TypesInfo.Uses[id] == params.At(i) {
				closed = i
				return true
			}
		}
		return false
	})
	if closed < 0 {
		return false
	}
	handed := true
	calls := forEachCall(pass, fn, func(call *ast.CallExpr) {
		if closed >= len(call.Args) {
			handed = false
			return
		}
		id, ok := ast.Unparen(call.Args[closed]).(*ast.Ident)
		caller := declOf(enclosing(pass, call))
		if !ok || caller == nil || !returnsVar(pass.TypesInfo, caller, pass.TypesInfo.Uses[id]) {
			handed = false
		}
	})
	return calls > 0 && handed
}

// returnsVar reports whether fd returns v itself in some return statement
// of its own body.
// litClosesReturned reports whether the innermost function literal on
// path (the keep-alive goroutine) defers closing a channel that the
// declared function around it returns to its caller (exit :=
// make(chan struct{}); go func() { defer close(exit); ... }(); return
// exit): the caller is handed the channel that says the renewal ended.
func litClosesReturned(pass *analysis.Pass, path []ast.Node, fd *ast.FuncDecl) bool {
	var lit *ast.FuncLit
	for _, n := range path {
		if l, ok := n.(*ast.FuncLit); ok {
			lit = l
			break
		}
	}
	if lit == nil {
		return false
	}
	return defers(lit.Body, func(call *ast.CallExpr) bool {
		b, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Builtin)
		if !ok || b.Name() != "close" || len(call.Args) != 1 {
			return false
		}
		id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
		return ok && returnsVar(pass.TypesInfo, fd, pass.TypesInfo.Uses[id])
	})
}

func returnsVar(info *types.Info, fd *ast.FuncDecl, v types.Object) bool {
	if v == nil {
		return false
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && info.Uses[id] == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// hearsReturn reports whether the function with body, calling a keep-alive
// helper in statement st (path: st's block and outward), cancels when the
// helper returns: it defers, or runs after st in its block, a cancel (a
// func value, a Cancel or Notify method), a send or a close. Bookkeeping
// (an atomic "running" flag, a field) is not the holder hearing.
func hearsReturn(pass *analysis.Pass, body *ast.BlockStmt, path []ast.Node, st ast.Stmt) bool {
	found := defers(body, func(call *ast.CallExpr) bool { return cancels(pass, call) })
	if found || len(path) == 0 {
		return found
	}
	block, ok := path[0].(*ast.BlockStmt)
	if !ok {
		return false
	}
	after := false
	for _, s := range block.List {
		if after && cancels(pass, s) {
			return true
		}
		after = after || s == st
	}
	return false
}

// cancels reports whether n sends, closes a channel, calls a func value
// that notifies (cancel(), onLost()) or a Cancel or Notify method, also
// inside a function literal it calls (defer func() { cancel() }()).
func cancels(pass *analysis.Pass, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.SendStmt:
			found = true
		case *ast.CallExpr:
			switch fn := typeutil.Callee(pass.TypesInfo, m).(type) {
			case *types.Builtin:
				found = found || fn.Name() == "close"
			case *types.Var:
				found = found || notifies(fn)
			case *types.Func:
				switch fn.Name() {
				case "Cancel", "cancel", "Notify", "notify":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// notifies reports whether a call of the func value v can be a signal:
// one that returns nothing or an error (cancel(), l.onLost(err)). A func
// value that returns something else computes it (timer.Reset(nextWait())).
func notifies(v *types.Var) bool {
	sig, ok := v.Type().Underlying().(*types.Signature)
	if !ok {
		return false
	}
	res := sig.Results()
	return res.Len() == 0 || res.Len() == 1 && types.Identical(res.At(0).Type(), types.Universe.Lookup("error").Type())
}

// isLog reports whether call only prints or logs.
func isLog(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if p := fn.Pkg().Path(); p == "fmt" || p == "log" || p == "log/slog" {
		return !strings.HasPrefix(fn.Name(), "Fatal") && !strings.HasPrefix(fn.Name(), "Panic") && !strings.HasPrefix(fn.Name(), "Errorf") && !strings.HasPrefix(fn.Name(), "Sprint")
	}
	switch strings.ToLower(fn.Name()) {
	case "print", "printf", "println", "debug", "debugf", "info", "infof", "warn", "warnf", "warning", "warningf", "error", "errorf", "log", "logf", "infow", "errorw", "warnw", "debugw", "msg", "msgf":
		return fn.Type().(*types.Signature).Results().Len() == 0
	}
	return false
}

// logEntries returns the calls in body that build a log entry for a log
// call: the receivers of the chain before it (log.WithError(err) in
// log.WithError(err).Errorf(...), zerolog's log.Error().Err(err)) and the
// fields handed to it (zap.Error(err), slog.Any("err", err) in
// logger.Error("extend failed", zap.Error(err))). An error handed to them
// is only logged.
func logEntries(info *types.Info, body ast.Node) map[*ast.CallExpr]bool {
	out := map[*ast.CallExpr]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isLog(info, call) {
			return true
		}
		for _, a := range call.Args {
			if field, ok := ast.Unparen(a).(*ast.CallExpr); ok {
				out[field] = true
			}
		}
		for {
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				break
			}
			inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
			if !ok {
				break
			}
			out[inner] = true
			call = inner
		}
		return true
	})
	return out
}

// errorTest reports whether call only tests an error (errors.Is,
// errors.As): the outcome is looked at, not handed on.
func errorTest(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && (fn.Name() == "Is" || fn.Name() == "As")
}

// clientHelper reports whether call unwraps a client reply
// (redis.Int(reply, err), redis.Bool(...)).
func clientHelper(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && redismodel.IsClientPackage(fn.Pkg().Path()) && fn.Type().(*types.Signature).Recv() == nil
}

// isTimerMethod reports whether fn is a method of time.Ticker or
// time.Timer.
func isTimerMethod(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && (n.Obj().Name() == "Ticker" || n.Obj().Name() == "Timer")
}

// onlyReadOnRelease reports whether the field sel assigns is unexported
// and read only by functions that let go of the lock (Close, Unlock,
// Release, Stop) or never read: a flag the work under the lock never
// sees.
func onlyReadOnRelease(pass *analysis.Pass, sel *ast.SelectorExpr) bool {
	v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	if !ok || !v.IsField() || v.Exported() {
		return false
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			name := strings.ToLower(fd.Name.Name)
			releasing := strings.Contains(name, "close") || strings.Contains(name, "unlock") ||
				strings.Contains(name, "release") || strings.Contains(name, "stop")
			read := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok {
					// Skip the assigned operands: x.f = v is no read of f.
					for _, r := range as.Rhs {
						ast.Inspect(r, func(m ast.Node) bool {
							if s, ok := m.(*ast.SelectorExpr); ok && pass.TypesInfo.Uses[s.Sel] == v {
								read = true
							}
							return !read
						})
					}
					return false
				}
				if s, ok := n.(*ast.SelectorExpr); ok && pass.TypesInfo.Uses[s.Sel] == v {
					read = true
				}
				return !read
			})
			if read && !releasing {
				return false
			}
		}
	}
	return true
}
