// Package section finds critical sections: the code that runs while a
// Redis lock is held, from a successful acquire to its release, on the
// control-flow graph.
//
// A [Section] starts after an acquire — a raw SET NX from the lifecycle
// model (a lock that is also released somewhere, or is named as a lock,
// so deduplication markers are not sections), or a lock-library acquire from locklib (safelock,
// redsync, bsm/redislock, rueidislock) — and holds every CFG node
// reachable from it
//
//   - without passing a release of the same lock in the same function
//     (a deferred release keeps the rest of the function in the section),
//   - without taking the branch where the acquire failed: the branch of a
//     condition on the acquire's results (err != nil, !ok, lease == nil,
//     reply != "OK", errors.Is(err, ...), !rdb.SetNX(...).Val(), also
//     through a conversion: cast.ToInt64(reply) == 0, reply.(int64); for
//     radix, the action's receiver: radix.Cmd(&reply, ...) then reply !=
//     "OK", or a radix.MaybeNil's Nil) that means "not acquired"; a Lua
//     acquire's reply is compared with what its script returns when the
//     key is held (1 for one that returns 0 when it takes the lock); a
//     test counts until its own variable is assigned again (after tx,
//     err := db.Begin(ctx), a test of err is the transaction's, but
//     if !ok { ...; return } is still the refusal),
//   - and not reachable from that branch as well: code after if ok {
//     ... } else { ... }, or after an error branch that only logs, runs
//     whether or not the lock is held (a failed path takes the failure
//     branch of every later test of the outcome: go-redis answers false
//     with an error).
//
// For safelock's Locker.Do the section is the callback's body (a literal,
// or a function or method of the package passed by name). The same holds
// for the project's own wrappers: a function whose section calls one of
// its func parameters (WithLock(ctx, key, fn)) exports a [WrapperFact],
// and the function passed there, in this package or an importing one,
// is a section of the wrapper's lock. A project's lock type over a
// library (TryLock keeps the redislock Lock in its receiver, Unlock
// releases it; FetchLock returns the lock it obtained) exports a
// [LockAPIFact], and its calls are treated as the library's own.
//
// Guarantee: a node is in a section only when the lock is certainly held
// there as far as the function shows; code after a release, on a failure
// branch, or in other functions is never in it. Deferred calls are left
// out of [Section.Inspect], since they may run after a deferred release,
// and so is code the section starts but does not wait for (a goroutine,
// a function handed to a worker pool or a timer: package later), since
// it may run after the release.
//
// Each [Lock] also says what the function does about renewal (explicit
// Renew/Extend/Refresh or EXPIRE calls, auto-renewal) and about lock-loss
// signals (Done, Err, Valid, the context rueidislock or Do hands out), so
// rules can tell whether a section may outlive its lease.
package section

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/later"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/noreturn"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// Analyzer computes the critical sections of a package.
var Analyzer = &analysis.Analyzer{
	Name:             "locksection",
	Doc:              "computes the critical sections of Redis locks (acquire to release on the CFG) for locklint rules",
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/internal/section/section.go",
	Requires:         []*analysis.Analyzer{lifecycle.Analyzer, later.Analyzer, noreturn.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*Result](),
	FactTypes:        []analysis.Fact{new(WrapperFact), new(LockAPIFact)},
}

// Result lists the sections of a package.
type Result struct {
	Sections []*Section
	// Defs is the package's single-assignment table (keyexpr).
	Defs *keyexpr.Defs
	// Lifecycle is the lifecycle result the sections were built from.
	Lifecycle *lifecycle.Result
	// Fields records what the package stores in struct fields.
	Fields *Fields
	// Exits tells which calls do not return (the graphs' callback).
	Exits *noreturn.Result
}

// Tri is a yes/no answer that may be unknown.
type Tri int

const (
	Unknown Tri = iota
	No
	Yes
)

// Lock is one acquire that opens a section.
type Lock struct {
	Lib     locklib.Lib
	Acquire *ast.CallExpr // the acquiring call (for raw locks via a helper: the helper call)
	How     string        // how it is acquired, for messages: "SET NX", "safelock Locker.TryAcquire"
	Key     keyexpr.Key   // the lock key or name, rendered in the enclosing function
	KeyExpr ast.Expr

	Op   *lifecycle.Op // raw locks
	Call *locklib.Call // library locks

	// Handle is the variable holding the lock: a safelock Lease, a
	// redislock Lock, a redsync Mutex, a rueidislock cancel func, the
	// Lease parameter of a Do callback. Nil when it is not a variable.
	Handle types.Object
	// HandleText renders the handle expression (redsync: "j.mu").
	HandleText string

	// TTL is the lock's TTL expression and how to read it; DefaultTTL is
	// the library default when no TTL is given (redsync: 8s).
	TTL        ast.Expr
	Unit       redismodel.Unit
	DefaultTTL time.Duration
	// TTLExtra is added to a TTL read from TTL (go-zero's RedisLock
	// holds its key SetExpire seconds plus 500 ms).
	TTLExtra time.Duration

	// AutoRenew: the lease renews itself (safelock WithAutoRenew or Do,
	// rueidislock). Renewals are explicit renew calls (Renew, Extend,
	// Refresh, EXPIRE of the key, anywhere in the function or, for raw
	// locks, in the package). RenewUnknown: the lock is passed where we
	// cannot see (an unreadable script on the key, a handle passed to
	// another function), so it may be renewed or watched there.
	AutoRenew    Tri
	Renewals     []ast.Node
	RenewUnknown bool

	// Watches are calls that observe lock loss: Done, Err, Deadline,
	// Valid, Until, TTL on the handle, or uses of LostCtx.
	Watches []ast.Node
	// LostCtx is the context cancelled when the lock is lost: the first
	// result of rueidislock WithContext (possibly the blank "_"), or the
	// context parameter of a Do callback. ParentCtx is the context passed
	// to the acquire.
	LostCtx   ast.Expr
	ParentCtx ast.Expr
}

// Section is the code run while one acquire holds its lock.
type Section struct {
	Lock *Lock
	Func ast.Node      // *ast.FuncDecl or *ast.FuncLit whose body holds the section
	Decl *ast.FuncDecl // the enclosing declared function
	// Nodes are the CFG nodes (statements and expressions) in the
	// section, in no particular order.
	Nodes []ast.Node
	// Releases end the section on the paths that reach them; Deferred is
	// a deferred release (the section lasts to the function's end).
	Releases []*ast.CallExpr
	Deferred *ast.CallExpr
	// Failure is the branch an if on the acquire's outcome takes when the
	// lock was not taken (the body of if err != nil, or of if !ok), or
	// nil: code there runs without the lock.
	Failure *ast.BlockStmt
	// FailureAfter are the statements after an if on the outcome that
	// has no else (if ok { ... } release()): they run when the lock was
	// not taken as well.
	FailureAfter []ast.Stmt

	// async are the nodes of Func that run later (package later): a
	// goroutine not waited for, a function handed to a pool.
	async map[ast.Node]bool
}

// newSection starts the section of lk in fn, which lies in fd.
func (b *builder) newSection(lk *Lock, fn ast.Node, fd *ast.FuncDecl) *Section {
	body := FuncBody(fn)
	async, ok := b.async[body]
	if !ok {
		async = b.later.Async(body)
		b.async[body] = async
	}
	return &Section{Lock: lk, Func: fn, Decl: fd, async: async}
}

// handOver keeps in the section the code it starts that releases the lock
// itself (go func() { defer unlock(key); rebuild() }()): the lock passes
// to that goroutine, which holds it up to its release.
func (s *Section) handOver(releases []*ast.CallExpr) {
	var keep []ast.Node
	for n := range s.async {
		for _, r := range releases {
			if n.Pos() <= r.Pos() && r.End() <= n.End() {
				keep = append(keep, n)
				break
			}
		}
	}
	if len(keep) == 0 {
		return
	}
	async := maps.Clone(s.async) // shared by the sections of one function
	for _, n := range keep {
		delete(async, n)
	}
	s.async = async
}

// Contains reports whether pos lies in a node of the section, outside
// the code the section starts to run later.
func (s *Section) Contains(pos token.Pos) bool {
	for n := range s.async {
		if n.Pos() <= pos && pos < n.End() {
			return false
		}
	}
	for _, n := range s.Nodes {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}

// Inspect walks every node of the section (including function literals
// inside it, such as transaction callbacks) except deferred calls and
// the code it starts to run later: goroutines it does not wait for and
// functions it hands to a pool or a timer.
func (s *Section) Inspect(f func(ast.Node) bool) {
	for _, n := range s.Nodes {
		if _, ok := n.(*ast.DeferStmt); ok || s.async[n] {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if _, ok := n.(*ast.DeferStmt); ok || s.async[n] {
				return false
			}
			return f(n)
		})
	}
}

// TTLValue evaluates the lock's TTL when it is a constant (directly or
// through locals assigned once), or the library default.
func (s *Section) TTLValue(info *types.Info, defs *keyexpr.Defs) (time.Duration, bool) {
	l := s.Lock
	if l.TTL == nil {
		return l.DefaultTTL, l.DefaultTTL > 0
	}
	d, ok := Duration(info, defs, l.TTL, l.Unit)
	return d + l.TTLExtra, ok
}

func run(pass *analysis.Pass) (any, error) {
	lc := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	res := &Result{Lifecycle: lc, Exits: pass.ResultOf[noreturn.Analyzer].(*noreturn.Result)}
	if len(lc.Locks) == 0 && !locklib.UsesLib(pass.Pkg, pass.TypesInfo) && !importsWrappers(pass) {
		return res, nil
	}
	b := &builder{
		pass: pass, lc: lc, cfgs: map[ast.Node]*cfg.CFG{},
		defs: keyexpr.NewDefs(pass.TypesInfo, pass.Files), parent: map[ast.Node]ast.Node{},
		declOf: map[*types.Func]*ast.FuncDecl{}, wrappers: map[*types.Func]*WrapperFact{},
		apis:  map[*types.Func]*LockAPIFact{},
		later: pass.ResultOf[later.Analyzer].(*later.Result), async: map[*ast.BlockStmt]map[ast.Node]bool{},
		exits: res.Exits,
	}
	res.Defs = b.defs
	b.fields = NewFields(pass.TypesInfo, pass.Files)
	res.Fields = b.fields
	b.index()
	b.exportLockAPI()
	b.apiCalls()
	b.rawSections()
	b.libSections()
	b.dropDoubles()
	b.exportWrappers()
	b.wrapperSections()
	res.Sections = b.sections
	return res, nil
}

// dropDoubles drops the raw section of an acquire that is also a lock
// library's (go-zero's RedisLock.AcquireCtx, read both as the library
// call and through the facts of the library's own SET NX): the
// library's section knows the key it was made with and its TTL.
func (b *builder) dropDoubles() {
	lib := map[*ast.CallExpr]bool{}
	for _, s := range b.sections {
		if s.Lock.Call != nil {
			lib[s.Lock.Acquire] = true
		}
	}
	kept := b.sections[:0]
	for _, s := range b.sections {
		if s.Lock.Call == nil && lib[s.Lock.Acquire] {
			continue
		}
		kept = append(kept, s)
	}
	b.sections = kept
}

type builder struct {
	pass     *analysis.Pass
	lc       *lifecycle.Result
	cfgs     map[ast.Node]*cfg.CFG // built on demand
	defs     *keyexpr.Defs
	fields   *Fields
	parent   map[ast.Node]ast.Node
	declOf   map[*types.Func]*ast.FuncDecl
	decls    []*ast.FuncDecl
	libCalls []*locklib.Call
	sections []*Section
	later    *later.Result
	async    map[*ast.BlockStmt]map[ast.Node]bool // later.Async by function body
	exits    *noreturn.Result
	wrappers map[*types.Func]*WrapperFact // this package's lock wrappers
	apis     map[*types.Func]*LockAPIFact // this package's lock API over a library
	// rangeReleases maps a release in the body of a range over a slice
	// of held locks to that range: the section ends where the range
	// starts, also on its way out of an empty slice.
	rangeReleases map[*ast.CallExpr]*ast.RangeStmt
}

// importsWrappers reports whether an imported package exports a lock
// wrapper (its function literals may be sections here).
func importsWrappers(pass *analysis.Pass) bool {
	for _, f := range pass.AllObjectFacts() {
		switch f.Fact.(type) {
		case *WrapperFact, *LockAPIFact:
			if f.Object.Pkg() != pass.Pkg {
				return true
			}
		}
	}
	return false
}

// index records parents, declarations and library calls.
func (b *builder) index() {
	for _, f := range b.pass.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if len(stack) > 0 {
				b.parent[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body != nil {
					b.decls = append(b.decls, n)
					if fn, ok := b.pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
						b.declOf[fn] = n
					}
				}
			case *ast.CallExpr:
				if c := locklib.Classify(b.pass.TypesInfo, n); c != nil {
					b.libCalls = append(b.libCalls, c)
				}
			}
			return true
		})
	}
}

// funcOf returns the innermost function (declaration or literal) holding
// n, and the enclosing declaration.
func (b *builder) funcOf(n ast.Node) (ast.Node, *ast.FuncDecl) {
	var inner ast.Node
	for p := b.parent[n]; p != nil; p = b.parent[p] {
		switch p := p.(type) {
		case *ast.FuncLit:
			if inner == nil {
				inner = p
			}
		case *ast.FuncDecl:
			if inner == nil {
				inner = p
			}
			return inner, p
		}
	}
	return inner, nil
}

// cfgOf builds (once) the control-flow graph of a function. The graphs
// are built here rather than taken from the ctrlflow pass, whose facts
// fail for every importer of a package with type errors; calls that
// do not return (panic, os.Exit, log.Fatal, a project's helpers that
// exit: see package noreturn) end their block.
func (b *builder) cfgOf(fn ast.Node) *cfg.CFG {
	if g, ok := b.cfgs[fn]; ok {
		return g
	}
	var body *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		body = fn.Body
	case *ast.FuncLit:
		body = fn.Body
	}
	var g *cfg.CFG
	if body != nil {
		g = cfg.New(body, b.exits.MayReturn)
	}
	b.cfgs[fn] = g
	return g
}

// inDefer reports whether n runs in a deferred call of fn.
func (b *builder) inDefer(n ast.Node, fn ast.Node) bool {
	for p := b.parent[n]; p != nil && p != fn; p = b.parent[p] {
		if _, ok := p.(*ast.DeferStmt); ok {
			return true
		}
	}
	return false
}

// acquireNamed reports whether op is an acquire sent here or through a
// helper named as one (TryLock, Acquire, Obtain): a lock with no release
// in sight opens a section only then, not when a deep helper (a
// constructor, a registration) is summarised as acquiring.
func acquireNamed(op *lifecycle.Op) bool {
	if op.Via == nil {
		return true
	}
	name := strings.ToLower(op.Via.Name())
	return strings.Contains(name, "lock") && !strings.Contains(name, "unlock") ||
		strings.Contains(name, "acquire") || strings.Contains(name, "obtain")
}

// releasedByHelper reports whether op is an acquire summarised from a
// helper of this package that gives the lock back before it returns, by
// a delete in the helper or in a helper it acquires through: a deferred
// delete in its own body (lock; defer DEL; work), or, for a helper not
// named as an acquire (runCycle, process), any such delete. The lock is
// held only while the helper runs, and the helpers' bodies are the
// section. (An Acquire or TryLock helper that deletes on a failure path
// still hands its caller the lock.)
func (b *builder) releasedByHelper(op *lifecycle.Op) bool {
	if op.Via == nil {
		return false
	}
	chain := map[*ast.FuncDecl]bool{}
	// Bounded by steps: a recursive helper's summary leads back into
	// itself.
	for in, depth := op.Inner(), 0; in != nil && depth < 8; in, depth = in.Inner(), depth+1 {
		if in.In.Decl != nil {
			chain[in.In.Decl] = true
		}
	}
	own := b.declOf[op.Via.Origin()]
	for _, o := range op.Lock().Ops {
		if o.Kind != lifecycle.Delete || !chain[o.In.Decl] {
			continue
		}
		if o.Via == nil && o.In.Decl == own && o.In.Lit == nil && o.In.InDefer || !acquireNamed(op) {
			return true
		}
	}
	return false
}

// rawSections opens a section at every direct or summarised NX acquire of
// a lock that is released somewhere or named as a lock (else it is a
// marker, not a lock; a lock whose release deletes the wrong key is
// still a lock).
func (b *builder) rawSections() {
	for _, fd := range b.decls {
		for _, op := range b.lc.Funcs[fd] {
			l := op.Lock()
			if op.Kind != lifecycle.Acquire || l == nil || op.In.InDefer || !l.IsLock(b.pass) {
				continue
			}
			if !l.Has(lifecycle.Delete) && (!l.LockNamed() || !acquireNamed(op)) {
				continue // a marker, or a lock whose acquire is not in sight here
			}
			if b.releasedByHelper(op) {
				continue // the helper's own section; its caller holds nothing after the call
			}
			if op.NoTTL && !l.Has(lifecycle.Expire) && !l.Has(lifecycle.Unknown) {
				// A lock that never expires cannot pass to another holder
				// while this one is paused: no late write to fence (its
				// missing TTL is lockexpiry's finding).
				continue
			}
			lk := &Lock{Lib: locklib.Raw, Acquire: op.Call, How: op.Describe(), Key: op.Key, KeyExpr: op.KeyExpr, Op: op}
			if op.Cmd != nil && op.Cmd.TTL != nil && !op.NoTTL {
				lk.TTL, lk.Unit = op.Cmd.TTL, op.Cmd.Unit
			}
			lk.AutoRenew = No
			for _, o := range l.Ops {
				switch o.Kind {
				case lifecycle.Expire:
					lk.Renewals = append(lk.Renewals, o.Call)
				case lifecycle.Unknown:
					lk.RenewUnknown = true
				}
			}
			fn, _ := b.funcOf(op.Call)
			var rels, all []*ast.CallExpr
			var deferred *ast.CallExpr
			for _, o := range l.Ops {
				if o.Kind != lifecycle.Delete || o.In.Decl != fd {
					continue
				}
				all = append(all, o.Call)
				if o.In.InDefer {
					deferred = o.Call
				} else if f, _ := b.funcOf(o.Call); f == fn {
					rels = append(rels, o.Call)
				}
			}
			for _, o := range l.Ops {
				if o.Kind == lifecycle.Write && o.TTL {
					lk.Renewals = append(lk.Renewals, o.Call) // SET ... XX PX
				}
			}
			rels = append(rels, b.opaqueCalls(lk, fn, fd)...)
			b.open(lk, fn, fd, rels, deferred, all)
		}
	}
}

// libSections opens a section at every library acquire.
func (b *builder) libSections() {
	for _, c := range b.libCalls {
		if c.Role != locklib.Acquire {
			continue
		}
		fn, fd := b.funcOf(c.Call)
		if fd == nil {
			continue
		}
		lk := &Lock{Lib: c.Lib, Acquire: c.Call, How: c.Name(), KeyExpr: c.Key, Call: c, ParentCtx: c.Ctx}
		if c.Key != nil {
			lk.Key = b.lc.Env(fd).Of(c.Key)
		}
		lk.TTL, lk.Unit = c.TTL, redismodel.UnitDuration
		if c.TTL == nil {
			lk.Unit = redismodel.UnitNone
		}
		if c.Lib == locklib.Gocron {
			if !b.gocronLocked(c, fd) {
				continue
			}
			b.gocronJobName(lk, c, fd)
			if call, ok := b.resolve(c.Fn).(*ast.CallExpr); ok && locklib.IsGocronTask(call) && calleeIs(b.pass.TypesInfo, call, "github.com/go-co-op/gocron/v2", "NewTask") {
				c.Fn = call.Args[0] // task := gocron.NewTask(fn)
			}
		}
		if c.Fn != nil {
			b.doSection(lk, c, fd)
			continue
		}
		b.bindHandle(lk, c)
		b.libKnowledge(lk, c, fd)
		if c.Wrapper != "" {
			// The project's lock type may renew or watch its lock inside.
			lk.AutoRenew, lk.RenewUnknown = Unknown, true
		}
		var rels []*ast.CallExpr
		var deferred *ast.CallExpr
		all := b.releases(lk, fd)
		for _, r := range all {
			if b.inDefer(r, fd) {
				deferred = r
			} else if f, _ := b.funcOf(r); f == fn {
				rels = append(rels, r)
			}
		}
		rels = append(rels, b.opaqueCalls(lk, fn, fd)...)
		b.open(lk, fn, fd, rels, deferred, all)
	}
}

// bindHandle finds the variable that holds the lock.
func (b *builder) bindHandle(lk *Lock, c *locklib.Call) {
	info := b.pass.TypesInfo
	if c.Handle < 0 {
		if c.Recv != nil {
			lk.HandleText = types.ExprString(c.Recv)
			if id, ok := ast.Unparen(c.Recv).(*ast.Ident); ok {
				lk.Handle = info.Uses[id]
			}
		}
		return
	}
	as, ok := b.parent[c.Call].(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != c.Call {
		return
	}
	obj := func(i int) types.Object {
		if i < 0 || i >= len(as.Lhs) {
			return nil
		}
		if id, ok := ast.Unparen(as.Lhs[i]).(*ast.Ident); ok {
			if o := info.ObjectOf(id); o != nil {
				return o
			}
		}
		return nil
	}
	lk.Handle = obj(c.Handle)
	if lk.Handle != nil {
		lk.HandleText = lk.Handle.Name()
	}
	if c.LostCtx >= 0 && c.LostCtx < len(as.Lhs) {
		lk.LostCtx = as.Lhs[c.LostCtx]
	}
}

// sameHandle reports whether e denotes the lock's handle.
func (b *builder) sameHandle(lk *Lock, e ast.Expr) bool {
	if e == nil {
		return false
	}
	if lk.Handle != nil {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && b.pass.TypesInfo.Uses[id] == lk.Handle
	}
	return lk.HandleText != "" && types.ExprString(e) == lk.HandleText
}

// releases lists the calls in fd that release the lock.
func (b *builder) releases(lk *Lock, fd *ast.FuncDecl) []*ast.CallExpr {
	var out []*ast.CallExpr
	for _, c := range b.libCalls {
		if c.Role == locklib.Release && c.Lib == lk.Lib && b.sameHandle(lk, c.Recv) && within(c.Call, fd) {
			if lk.Lib.KeyedRelease() && (c.Key == nil || lk.Call == nil || lk.Call.Key == nil || types.ExprString(c.Key) != types.ExprString(lk.Call.Key)) {
				continue // another key on the same manager
			}
			out = append(out, c.Call)
		}
	}
	if lk.Lib == locklib.Rueidislock && lk.Handle != nil {
		// The cancel func releases a rueidislock lock.
		ast.Inspect(fd, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && b.pass.TypesInfo.Uses[id] == lk.Handle {
					out = append(out, call)
				}
			}
			return true
		})
	}
	return out
}

// libKnowledge fills TTL defaults, renewal and watch facts of a library lock.
func (b *builder) libKnowledge(lk *Lock, c *locklib.Call, fd *ast.FuncDecl) {
	info := b.pass.TypesInfo
	switch lk.Lib {
	case locklib.Safelock:
		lk.AutoRenew = b.safelockAutoRenew(c.Recv)
	case locklib.Redsync:
		lk.AutoRenew = No
		b.redsyncExpiry(lk, c.Recv)
	case locklib.Redislock:
		lk.AutoRenew = No
	case locklib.Rueidislock:
		lk.AutoRenew = Yes
	case locklib.GoZero:
		lk.AutoRenew = No
		b.goZeroExpiry(lk, c, fd)
	case locklib.RedlockGo:
		lk.AutoRenew = No
	case locklib.BsmRedisLock, locklib.GoRedislock, locklib.XiaoxuRedisLock:
		b.handleLibExpiry(lk, c, fd)
	}
	for _, o := range b.libCalls {
		if !within(o.Call, fd) || o.Lib != lk.Lib || !b.sameHandle(lk, o.Recv) {
			continue
		}
		switch o.Role {
		case locklib.Renew:
			lk.Renewals = append(lk.Renewals, o.Call)
		case locklib.Watch:
			lk.Watches = append(lk.Watches, o.Call)
		}
	}
	// A handle used other than as the receiver of a library call (passed
	// to a helper, stored, returned) may be renewed or watched elsewhere.
	if lk.Handle != nil && lk.Lib != locklib.Rueidislock {
		ast.Inspect(fd, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || info.Uses[id] != lk.Handle {
				return true
			}
			if sel, ok := b.parent[id].(*ast.SelectorExpr); ok && sel.X == id {
				if call, ok := b.parent[sel].(*ast.CallExpr); ok && call.Fun == sel && locklib.Classify(info, call) != nil {
					return true
				}
			}
			if _, ok := b.parent[id].(*ast.BinaryExpr); ok { // lease == nil
				return true
			}
			lk.RenewUnknown = true
			return true
		})
	}
	if lk.LostCtx != nil {
		if id, ok := ast.Unparen(lk.LostCtx).(*ast.Ident); ok && id.Name != "_" {
			if obj := info.ObjectOf(id); obj != nil {
				lk.Watches = append(lk.Watches, b.uses(fd, obj)...)
			}
		}
	}
}

// uses lists the identifiers in root that refer to obj.
func (b *builder) uses(root ast.Node, obj types.Object) []ast.Node {
	var out []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && b.pass.TypesInfo.Uses[id] == obj {
			out = append(out, id)
		}
		return true
	})
	return out
}

// safelockAutoRenew reads the options of the safelock.New call behind a
// Locker expression.
func (b *builder) safelockAutoRenew(locker ast.Expr) Tri {
	call := b.definition(locker)
	if call == nil {
		return Unknown
	}
	c := locklib.Classify(b.pass.TypesInfo, call)
	if c == nil || c.Role != locklib.NewLocker || call.Ellipsis.IsValid() {
		return Unknown
	}
	for _, o := range c.Opts {
		oc, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return Unknown
		}
		switch lc := locklib.Classify(b.pass.TypesInfo, oc); {
		case lc == nil:
			return Unknown
		case lc.Role == locklib.AutoRenew:
			return Yes
		}
	}
	return No
}

// redsyncExpiry reads WithExpiry from the NewMutex call behind a Mutex
// expression; without one redsync uses 8 seconds.
func (b *builder) redsyncExpiry(lk *Lock, mutex ast.Expr) {
	call := b.definition(mutex)
	if call == nil {
		return
	}
	c := locklib.Classify(b.pass.TypesInfo, call)
	if c == nil || c.Role != locklib.NewMutex || call.Ellipsis.IsValid() {
		return
	}
	b.constructorKey(lk, call, c.Key)
	for _, o := range c.Opts {
		oc, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return
		}
		lc := locklib.Classify(b.pass.TypesInfo, oc)
		if lc == nil {
			return
		}
		if lc.Role == locklib.Expiry {
			lk.TTL, lk.Unit = lc.TTL, redismodel.UnitDuration
			return
		}
	}
	lk.DefaultTTL, _ = lk.Lib.Defaults()
}

// goZeroExpiry reads the key from the NewRedisLock call behind a go-zero
// RedisLock, and its TTL from the SetExpire(seconds) on it before the
// acquire in fd: seconds + 500 ms, or 500 ms without one (go-zero's
// tolerance). A lock made or set elsewhere keeps an unknown TTL.
func (b *builder) goZeroExpiry(lk *Lock, c *locklib.Call, fd *ast.FuncDecl) {
	call := b.definition(c.Recv)
	if call == nil {
		return
	}
	nc := locklib.Classify(b.pass.TypesInfo, call)
	if nc == nil || nc.Role != locklib.NewMutex || !within(call, fd) {
		return
	}
	if lk.Key == (keyexpr.Key{}) && nc.Key != nil {
		lk.KeyExpr = nc.Key
		lk.Key = b.lc.Env(fd).Of(nc.Key)
	}
	const tolerance = 500 * time.Millisecond
	var expire *locklib.Call
	for _, o := range b.libCalls {
		if o.Role == locklib.Expiry && o.Lib == locklib.GoZero && within(o.Call, fd) && b.sameHandle(lk, o.Recv) && o.Call.Pos() < c.Call.Pos() {
			expire = o
		}
	}
	if expire == nil {
		lk.DefaultTTL = tolerance
		return
	}
	lk.TTL, lk.Unit, lk.TTLExtra = expire.TTL, redismodel.UnitSeconds, tolerance
}

// constructorKey takes a library lock's key from the constructor call
// that made its lock object (NewMutex(key), New(client, key)), rendered
// where that call is, when the acquire did not name one.
func (b *builder) constructorKey(lk *Lock, call *ast.CallExpr, key ast.Expr) {
	if lk.Key != (keyexpr.Key{}) || key == nil {
		return
	}
	lk.KeyExpr = key
	if _, fd := b.funcOf(call); fd != nil {
		lk.Key = b.lc.Env(fd).Of(key)
	} else {
		lk.Key = (&keyexpr.Env{Info: b.pass.TypesInfo, Defs: b.defs}).Of(key)
	}
}

// handleLibExpiry reads the TTL and self-renewal of a lock of the smaller
// libraries (see locklib.Lib.Defaults) from its acquire (bsm/redis-lock's
// Obtain and Run take the options) or from the constructor that made the
// lock object it is called on, with that constructor's options. A lock
// made elsewhere, or with options locklint cannot read, keeps an unknown
// TTL and renewal.
func (b *builder) handleLibExpiry(lk *Lock, c *locklib.Call, fd *ast.FuncDecl) {
	src := c
	if c.Handle < 0 {
		call := b.definition(c.Recv)
		if call == nil {
			return
		}
		nc := locklib.Classify(b.pass.TypesInfo, call)
		if nc == nil || nc.Role != locklib.NewMutex || nc.Lib != lk.Lib {
			return
		}
		b.constructorKey(lk, call, nc.Key)
		if call.Ellipsis.IsValid() {
			return
		}
		src = nc
	}
	b.setLibTTL(lk, src)
}

// setLibTTL applies the TTL and the options of src, the acquire or the
// constructor of a lock of the smaller libraries, to lk.
func (b *builder) setLibTTL(lk *Lock, src *locklib.Call) {
	ttl, renews := lk.Lib.Defaults()
	expiry, isDefault := src.TTL, src.DefaultTTL
	seconds := src.TTLSeconds
	if lk.Lib != locklib.BsmRedisLock {
		isDefault = true // options are calls, read below
	}
	for _, o := range src.Opts {
		oc, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return
		}
		lc := locklib.Classify(b.pass.TypesInfo, oc)
		if lc == nil {
			return
		}
		switch lc.Role {
		case locklib.Expiry:
			// redis_lock's watchdog runs only when no TTL is set.
			expiry, seconds, renews = lc.TTL, lc.TTLSeconds, false
		case locklib.AutoRenew:
			renews = true
		}
	}
	lk.AutoRenew = No
	if renews {
		lk.AutoRenew = Yes
	}
	switch {
	case expiry != nil:
		lk.TTL, lk.Unit = expiry, redismodel.UnitDuration
		if seconds {
			lk.Unit = redismodel.UnitSeconds
		}
	case isDefault:
		lk.DefaultTTL = ttl
	}
}

// definition returns the call that made the value of e: e itself, or the
// single definition of the variable it names (local or package-level).
func (b *builder) definition(e ast.Expr) *ast.CallExpr {
	call, _ := b.resolve(e).(*ast.CallExpr)
	return call
}

// resolve follows variables assigned once, and &x, to the expression
// that made the value of e.
func (b *builder) resolve(e ast.Expr) ast.Expr {
	return ResolveFields(b.pass.TypesInfo, b.defs, b.fields, e)
}

// gocronOptions calls f with each gocron option among opts, also those
// put in a slice passed as opts... (built by a literal or by append in
// fn, the function the call is in).
func (b *builder) gocronOptions(opts []ast.Expr, fn *ast.FuncDecl, f func(*locklib.Call)) {
	info := b.pass.TypesInfo
	var visit func(e ast.Expr)
	visit = func(e ast.Expr) {
		if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			if lc := locklib.Classify(info, call); lc != nil && lc.Lib == locklib.Gocron {
				f(lc)
			}
			return
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || fn == nil {
			return
		}
		obj := info.Uses[id]
		ast.Inspect(fn, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			if lid, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); !ok || info.ObjectOf(lid) != obj {
				return true
			}
			switch r := ast.Unparen(as.Rhs[0]).(type) {
			case *ast.CallExpr:
				if fid, ok := ast.Unparen(r.Fun).(*ast.Ident); ok && fid.Name == "append" {
					for _, a := range r.Args[1:] {
						visit(a)
					}
				}
			case *ast.CompositeLit:
				for _, el := range r.Elts {
					visit(el)
				}
			}
			return true
		})
	}
	for _, o := range opts {
		visit(o)
	}
}

// gocronLocked reports whether the gocron job that c registers runs
// under a distributed locker: its own (WithDistributedJobLocker) or its
// scheduler's (WithDistributedLocker among the options of the
// NewScheduler call that made c's receiver), and not disabled
// (WithDisabledDistributedJobLocker(true)).
func (b *builder) gocronLocked(c *locklib.Call, fd *ast.FuncDecl) bool {
	info := b.pass.TypesInfo
	roles := func(opts []ast.Expr, fn *ast.FuncDecl) (locker, disabled bool) {
		b.gocronOptions(opts, fn, func(lc *locklib.Call) {
			switch lc.Role {
			case locklib.SchedLocker:
				locker = true
			case locklib.NoSchedLocker:
				if len(lc.Call.Args) == 1 {
					if id, ok := ast.Unparen(lc.Call.Args[0]).(*ast.Ident); !ok || id.Name != "false" {
						disabled = true
					}
				}
			}
		})
		return locker, disabled
	}
	jobLocker, disabled := roles(c.Opts, fd)
	if disabled {
		return false
	}
	if jobLocker {
		return true
	}
	call := b.definition(c.Recv)
	if call == nil {
		// s, err := gocron.NewScheduler(...)
		if id, ok := b.resolve(c.Recv).(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				call, _ = b.defs.Tuple(v)
			}
		}
	}
	if call == nil {
		return false
	}
	nc := locklib.Classify(info, call)
	if nc == nil || nc.Lib != locklib.Gocron || nc.Role != locklib.NewLocker {
		return false
	}
	_, nfd := b.funcOf(call)
	locker, _ := roles(nc.Opts, nfd)
	return locker
}

// gocronJobName takes the lock's key, the job's name, from WithName
// among the job's options.
func (b *builder) gocronJobName(lk *Lock, c *locklib.Call, fd *ast.FuncDecl) {
	b.gocronOptions(c.Opts, fd, func(lc *locklib.Call) {
		if lc.Role == locklib.JobName && lc.Key != nil {
			lk.KeyExpr, lk.Key = lc.Key, b.lc.Env(fd).Of(lc.Key)
		}
	})
}

// doSection makes the callback of safelock's Locker.Do (or of
// bsm/redis-lock's Run, or a gocron job's task) a section.
func (b *builder) doSection(lk *Lock, c *locklib.Call, fd *ast.FuncDecl) {
	switch lk.Lib {
	case locklib.Safelock:
		lk.AutoRenew = Yes
	case locklib.BsmRedisLock: // Run(client, key, opts, handler)
		b.setLibTTL(lk, c)
	case locklib.Gocron:
		// The locker's lock: its TTL and renewal are the locker's.
		lk.AutoRenew, lk.RenewUnknown = Unknown, true
	}
	var fn ast.Node
	var params *ast.FieldList
	switch f := ast.Unparen(c.Fn).(type) {
	case *ast.FuncLit:
		fn, params = f, f.Type.Params
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := f.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = f.(*ast.Ident)
		}
		if lit, ok := b.resolve(id).(*ast.FuncLit); ok {
			fn, params = lit, lit.Type.Params
		} else if tf, ok := b.pass.TypesInfo.Uses[id].(*types.Func); ok && b.declOf[tf] != nil {
			d := b.declOf[tf]
			fn, params, fd = d, d.Type.Params, d
		}
	case *ast.CallExpr:
		// A factory of this package that returns the closure to run
		// (gocron.NewTask(s.makeTask(job))).
		if tf, ok := typeutil.Callee(b.pass.TypesInfo, f).(*types.Func); ok && lk.Lib == locklib.Gocron {
			if d := b.declOf[tf]; d != nil && d.Body != nil {
				if lit := returnedLit(d); lit != nil {
					fn, params, fd = lit, lit.Type.Params, d
				}
			}
		}
	}
	if fn == nil {
		return
	}
	var names []*ast.Ident
	if params != nil {
		for _, f := range params.List {
			names = append(names, f.Names...)
		}
	}
	if len(names) == 2 && lk.Lib == locklib.Safelock { // func(ctx, lease)
		lk.LostCtx = names[0]
		if obj := b.pass.TypesInfo.Defs[names[0]]; obj != nil && names[0].Name != "_" {
			lk.Watches = append(lk.Watches, b.uses(fn, obj)...)
		}
		if obj := b.pass.TypesInfo.Defs[names[1]]; obj != nil && names[1].Name != "_" {
			lk.Handle, lk.HandleText = obj, names[1].Name
			for _, o := range b.libCalls {
				if o.Role == locklib.Watch && within(o.Call, fn) && b.sameHandle(lk, o.Recv) {
					lk.Watches = append(lk.Watches, o.Call)
				}
			}
		}
	}
	g := b.cfgOf(fn)
	if g == nil {
		return
	}
	s := b.newSection(lk, fn, fd)
	for _, blk := range g.Blocks {
		if blk.Live {
			s.Nodes = append(s.Nodes, blk.Nodes...)
		}
	}
	b.sections = append(b.sections, s)
}

func within(n, root ast.Node) bool { return root.Pos() <= n.Pos() && n.End() <= root.End() }

// returnedLit returns the function literal d returns, when its body's
// last statement returns one.
func returnedLit(d *ast.FuncDecl) *ast.FuncLit {
	if len(d.Body.List) == 0 {
		return nil
	}
	ret, ok := d.Body.List[len(d.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	lit, _ := ast.Unparen(ret.Results[0]).(*ast.FuncLit)
	return lit
}

// calleeIs reports whether call calls pkgPath.name.
func calleeIs(info *types.Info, call *ast.CallExpr, pkgPath, name string) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == pkgPath && fn.Name() == name
}

// Describe names the lock for messages, its key as written at the
// acquire ([lifecycle.KeyText]): `lock "lock:job:"+id (SET NX)`,
// `lock name (rueidislock Locker.WithContext)`.
func (l *Lock) Describe() string {
	if l.KeyExpr == nil && !l.Key.Anchored {
		return "a lock (" + l.How + ")"
	}
	return fmt.Sprintf("lock %s (%s)", lifecycle.KeyText(l.KeyExpr, l.Key), l.How)
}
