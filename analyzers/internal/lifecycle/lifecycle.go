package lifecycle

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/callorder"
	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/luascript"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/soleimpl"
)

// Analyzer computes the lock lifecycles of a package. Rules list it in
// Requires and read its *Result from pass.ResultOf.
var Analyzer = &analysis.Analyzer{
	Name:             "locklifecycle",
	Doc:              "computes Redis lock lifecycles (acquire, release, renew, compare) for locklint rules",
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/internal/lifecycle/doc.go",
	Run:              run,
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*Result](),
	FactTypes:        []analysis.Fact{new(FuncFact), new(ScriptFact), new(PackageFact), new(ClientFact), new(RawWrapperFact)},
}

// OpKind is what an operation does to a key.
type OpKind int

const (
	Acquire OpKind = iota + 1 // SET NX / SETNX (or a script that does it)
	Delete                    // DEL, UNLINK, GETDEL, DELEX, a script that deletes
	Expire                    // EXPIRE family, or a script that sets a TTL
	Read                      // GET
	Write                     // SET without NX
	Unknown                   // touches the key in a way we cannot read
)

func (k OpKind) String() string {
	switch k {
	case Acquire:
		return "acquire"
	case Delete:
		return "delete"
	case Expire:
		return "expire"
	case Read:
		return "read"
	case Write:
		return "write"
	case Unknown:
		return "unknown"
	}
	return "?"
}

// Op is one operation on a key, seen from a function of this package:
// either a Redis command sent right there (Cmd != nil) or a call to a
// helper whose summary says it does this to the key (Via != nil).
type Op struct {
	Kind    OpKind
	Command string      // Redis command, e.g. "SET NX", "DEL", "PEXPIRE", "EVAL"
	Key     keyexpr.Key // the key, rendered in the enclosing function
	KeyExpr ast.Expr    // the key expression at Call (nil if not an argument here)
	Value   ast.Expr    // Acquire/Write: the value stored, if known here

	// TTL: the command gives the key an expiry (atomically with the SET for
	// Acquire/Write). NoTTL: an Acquire that certainly sets none.
	TTL, NoTTL bool
	// ttlExpr is the TTL argument when neither is certain here (a
	// wrapper's expiration parameter), for callers to decide.
	ttlExpr ast.Expr
	// scriptParam is 1 + the parameter holding the Lua text of an
	// Unknown EVAL (a wrapper run with its caller's script), and
	// scriptKey the KEYS index of the op's key.
	scriptParam, scriptKey int
	// Checked: a Delete/Expire/Write that is atomically conditioned on the
	// key's value (compare-and-delete script, DELEX/SET IFEQ, or a queued
	// command of a WATCH transaction that read the key).
	Checked bool
	// ReadBefore is the GET of the same key earlier in the same function
	// when a Delete/Expire is not Checked: the GET-compare-DEL shape.
	ReadBefore *Op

	Cmd  *redismodel.Command // the command, when sent directly
	Call *ast.CallExpr       // the call in this package (command or helper call)
	In   redismodel.Context  // where Call runs

	Via      *types.Func // the helper called, when summarised
	ViaWhere string      // file:line of the command inside the helper
	// Judged: the helper's own package saw this op as part of a lock and
	// rules reported any defect there; do not report it again here.
	Judged bool
	// Counted: an INCR acquire through a wrapper that only returns the
	// count (FuncFact.Counts); the lock is this call's, not the wrapper's.
	Counted bool

	// Site is the call a reviewer would change: the command itself when it
	// is sent in a helper of this package (the EXPIRE in a watchdog, the
	// DEL in a release helper), or the call of the innermost such helper
	// that is more than a thin wrapper of one command. It is Call when the
	// command lives in another package. Rules report at Site, once.
	Site *ast.CallExpr

	// inner is the op inside a helper of this package that this op was
	// summarised from (nil for direct ops and imported helpers).
	inner *Op

	lock   *Lock
	fact   int // index in the enclosing function's FuncFact, or -1
	viaIdx int // index of the summarised op in Via's FuncFact
}

// Pos is where the op happens in this package.
func (o *Op) Pos() token.Pos { return o.Call.Pos() }

// ReportAt is the range to report a defect of this op at: Site.
func (o *Op) ReportAt() (token.Pos, token.Pos) {
	if o.Site != nil {
		return o.Site.Pos(), o.Site.End()
	}
	return o.Call.Pos(), o.Call.End()
}

// AtSite reports whether the op is reported where it happens (not moved
// into a helper of this package).
func (o *Op) AtSite() bool { return o.Site == nil || o.Site == o.Call }

// Lock returns the lifecycle the op belongs to, or nil.
func (o *Op) Lock() *Lock { return o.lock }

// Inner returns the op inside a helper of this package that o was
// summarised from, or nil.
func (o *Op) Inner() *Op { return o.inner }

// Direct reports whether the command is sent at o.Call itself.
func (o *Op) Direct() bool { return o.Cmd != nil }

// Describe names the op for messages: "DEL" or "DEL (in locker.Unlock at locker.go:12)".
func (o *Op) Describe() string { return o.Command + o.Where() }

// DescribeAtSite names the op for a report at its Site: "DEL" when the
// site is inside the helper, else Describe.
func (o *Op) DescribeAtSite() string {
	if o.AtSite() {
		return o.Describe()
	}
	return o.Command
}

// WhereAtSite is Where for a report at the op's Site.
func (o *Op) WhereAtSite() string {
	if o.AtSite() {
		return o.Where()
	}
	return ""
}

// Where is "" for a direct op, or " (in locker.Unlock at locker.go:12)".
func (o *Op) Where() string {
	if o.Via == nil {
		return ""
	}
	return fmt.Sprintf(" (in %s at %s)", FuncName(o.Via), o.ViaWhere)
}

// Lock is one lock key: the NX acquires of a key and every other op on
// the same key in the package, in source order.
type Lock struct {
	Key      keyexpr.Key
	Acquires []*Op
	Ops      []*Op // non-acquire ops on the key
	// ByParam is set when the lifecycle was joined through sibling
	// functions that take the key as a parameter (Lock(key)/Unlock(key)
	// methods of one type, or functions of one file).
	ByParam bool
	// usedAsLock: the acquire is in a wrapper named after the command
	// (Client.SetNX) that a lock of this package calls to take its lock.
	usedAsLock bool
	// recordPkg: the package is named for idempotency or dedup records
	// (package idempotent, dedup): its types keep markers, so a lock word
	// in a type's name (Guard) is not evidence; a function named as taking
	// a lock still is.
	recordPkg bool
	// Once the package's locks are built (done), IsLock and lockWord are
	// remembered: rules ask them for every op of a lock, and a package
	// with hundreds of ops on one key made that quadratic in renderings.
	// Rules run concurrently, hence atomics (0 until computed).
	done         bool
	word, isLock atomic.Int32
}

// remembered answers of a done Lock.
const (
	answerNo int32 = iota + 1
	answerYes
)

func answerOf(b bool) int32 {
	if b {
		return answerYes
	}
	return answerNo
}

// KeyText names the op's key for messages, the one way every rule does:
// the key as written at the call (key, "lock:job:"+job, l.key), or, when
// the key is not an argument here (a helper with its own key), the
// helper's key with its locals as *.
func (o *Op) KeyText() string { return KeyText(o.KeyExpr, o.Key) }

// KeyText is [Op.KeyText] for a key expression e (nil when not at hand)
// whose canonical form is k.
func KeyText(e ast.Expr, k keyexpr.Key) string {
	if e == nil {
		return k.String()
	}
	s := types.ExprString(e)
	if len(s) > 60 {
		n := 57
		for !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "..."
	}
	return s
}

// Has reports whether the lock has an op of kind k.
func (l *Lock) Has(k OpKind) bool {
	for _, op := range l.Ops {
		if op.Kind == k {
			return true
		}
	}
	return false
}

// Result is the lifecycle model of one package.
type Result struct {
	// Ops are all key operations, grouped by function in source order.
	Ops []*Op
	// Locks are the keys acquired with NX, each with its operations.
	Locks []*Lock
	// Funcs maps each declared function to its ops.
	Funcs map[*ast.FuncDecl][]*Op
	// Calls lists every call with its command model (or nil), per function,
	// for rules that need the raw command stream.
	Calls map[*ast.FuncDecl][]redismodel.Call
	// Env renders expressions of a function as keys (keyexpr), the same
	// way the lifecycle does.
	Env func(*ast.FuncDecl) *keyexpr.Env
}

// FuncName names fn for messages: Type.Method or pkg.Func.
func FuncName(fn *types.Func) string {
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
	}
	if fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{Funcs: map[*ast.FuncDecl][]*Op{}, Calls: map[*ast.FuncDecl][]redismodel.Call{}}
	if !relevant(pass) {
		res.Env = func(*ast.FuncDecl) *keyexpr.Env { return &keyexpr.Env{Info: pass.TypesInfo} }
		if holdsScripts(pass) {
			// A package of Lua scripts only (//go:embed lock.lua): its
			// importers need the text.
			for v, sv := range redismodel.PackageScripts(pass) {
				pass.ExportObjectFact(v, &ScriptFact{Text: sv.Text, KeyCount: sv.KeyCount})
			}
		}
		return res, nil
	}
	pass.ExportPackageFact(new(PackageFact))
	for v, sv := range redismodel.PackageScripts(pass) {
		pass.ExportObjectFact(v, &ScriptFact{Text: sv.Text, KeyCount: sv.KeyCount})
	}
	for tn := range redismodel.ClientInterfaces(pass) {
		pass.ExportObjectFact(tn, new(ClientFact))
	}
	for fn := range redismodel.RawWrappers(pass) {
		if fn.Exported() {
			pass.ExportObjectFact(fn, new(RawWrapperFact))
		}
	}

	b := newBuilder(pass)
	res.Env = b.env
	importedClient := func(tn *types.TypeName) bool { return pass.ImportObjectFact(tn, new(ClientFact)) }
	importedRaw := func(fn *types.Func) bool { return pass.ImportObjectFact(fn, new(RawWrapperFact)) }
	redismodel.Scan(pass, redismodel.ScanOptions{Defs: b.defs, ImportedScript: b.importedScript, ImportedClient: importedClient, ImportedRaw: importedRaw}, func(c redismodel.Call) {
		if c.In.Decl != nil {
			b.calls[c.In.Decl] = append(b.calls[c.In.Decl], c)
		}
	})
	b.resolveInterfaces()
	b.summarise()
	b.placeSites()
	b.joinLocks()
	b.exportFacts()
	for _, l := range b.locks {
		l.done = true
	}

	res.Funcs = b.ops
	res.Calls = b.calls
	res.Locks = b.locks
	for _, d := range b.decls {
		res.Ops = append(res.Ops, b.ops[d]...)
	}
	return res, nil
}

// holdsScripts reports, cheaply, whether package-level declarations may
// hold Lua scripts: a //go:embed of a .lua file, or a string constant or
// variable mentioning redis.call.
func holdsScripts(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR && gd.Tok != token.CONST {
				continue
			}
			found := false
			ast.Inspect(gd, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Comment:
					found = found || strings.Contains(n.Text, "go:embed") && strings.Contains(n.Text, ".lua")
				case *ast.BasicLit:
					found = found || n.Kind == token.STRING && strings.Contains(n.Value, "redis.call")
				}
				return !found
			})
			if found || gd.Doc != nil && strings.Contains(gd.Doc.Text(), ".lua") {
				return true
			}
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok && vs.Doc != nil {
					for _, c := range vs.Doc.List {
						if strings.Contains(c.Text, "go:embed") && strings.Contains(c.Text, ".lua") {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// relevant reports whether the package uses a client directly or imports
// a package that does.
func relevant(pass *analysis.Pass) bool {
	if redismodel.ImportsClient(pass.Pkg) || len(redismodel.ClientInterfaces(pass)) > 0 {
		return true
	}
	for _, imp := range pass.Pkg.Imports() {
		if pass.ImportPackageFact(imp, new(PackageFact)) {
			return true
		}
	}
	return false
}

type builder struct {
	downloaded bool // the package comes from the module cache (see Downloaded)
	pass       *analysis.Pass
	defs       *keyexpr.Defs
	decls      []*ast.FuncDecl // in source order
	declOf     map[*types.Func]*ast.FuncDecl
	envMu      sync.Mutex
	envs       map[*ast.FuncDecl]*keyexpr.Env
	calls      map[*ast.FuncDecl][]redismodel.Call
	ops        map[*ast.FuncDecl][]*Op
	facts      map[*types.Func]*FuncFact // summaries of this package's functions
	ifaces     map[*types.Func]*types.Func
	// project finds the only implementation of an interface whose
	// package resolves none (soleimpl.Project).
	project      func() *soleimpl.Project
	projectImpls map[*types.Func]*types.Func // interface methods resolved by project
	locks        []*Lock
	imports      map[*types.Func]*FuncFact // cache of imported facts (nil = none)
	// results maps a call whose results are assigned (tok, err := f()) to
	// the left-hand sides, so a helper's returned token gets a name.
	results map[*ast.CallExpr][]ast.Expr
	// pkgScripts are the package-level scripts (read once, on demand).
	pkgScripts map[*types.Var]redismodel.ScriptValue
	// namespaces are the shapes of keys that one helper makes from a
	// parameter (serialKey(key)) and that also key plain data writes:
	// the helper prefixes every key of the package, so two functions
	// using it name the same key only when their callers pass the same.
	namespaces map[string]bool
}

func newBuilder(pass *analysis.Pass) *builder {
	b := &builder{
		pass:         pass,
		downloaded:   Downloaded(pass),
		defs:         keyexpr.NewDefs(pass.TypesInfo, pass.Files),
		declOf:       map[*types.Func]*ast.FuncDecl{},
		envs:         map[*ast.FuncDecl]*keyexpr.Env{},
		calls:        map[*ast.FuncDecl][]redismodel.Call{},
		ops:          map[*ast.FuncDecl][]*Op{},
		facts:        map[*types.Func]*FuncFact{},
		ifaces:       map[*types.Func]*types.Func{},
		imports:      map[*types.Func]*FuncFact{},
		project:      sync.OnceValue(func() *soleimpl.Project { return soleimpl.ProjectOf(pass) }),
		projectImpls: map[*types.Func]*types.Func{},
		results:      map[*ast.CallExpr][]ast.Expr{},
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
				if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
					b.results[call] = as.Lhs
				}
			}
			return true
		})
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				b.decls = append(b.decls, fd)
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					b.declOf[fn] = fd
				}
			}
		}
	}
	return b
}

func (b *builder) env(fd *ast.FuncDecl) *keyexpr.Env {
	// Rules that require lifecycle run concurrently on the same package and
	// reach this cache through Result.Env.
	b.envMu.Lock()
	defer b.envMu.Unlock()
	if e, ok := b.envs[fd]; ok {
		return e
	}
	e := &keyexpr.Env{Info: b.pass.TypesInfo, Params: map[*types.Var]int{}, Defs: b.defs}
	if fd != nil {
		if fn, ok := b.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
			sig := fn.Type().(*types.Signature)
			params := sig.Params()
			for i := 0; i < params.Len(); i++ {
				e.Params[params.At(i)] = i
			}
			e.Recv = sig.Recv()
		}
	}
	b.envs[fd] = e
	return e
}

func (b *builder) importedScript(v *types.Var) (redismodel.ScriptValue, bool) {
	var f ScriptFact
	if !b.pass.ImportObjectFact(v, &f) {
		return redismodel.ScriptValue{}, false
	}
	return redismodel.ScriptValue{Text: f.Text, KeyCount: f.KeyCount}, true
}

// resolveInterfaces maps methods of the package's interfaces to the
// methods of their only implementation in the package (soleimpl), or of
// their only implementation that talks to Redis: a cache interface with
// a go-redis implementation and an in-memory one does, on Redis, what
// the go-redis one does, and its lock logic is the same on either.
func (b *builder) resolveInterfaces() {
	redis := map[*types.TypeName]bool{}
	for decl, calls := range b.calls {
		if decl.Recv == nil || !slices.ContainsFunc(calls, func(c redismodel.Call) bool { return c.Cmd != nil }) {
			continue
		}
		fn, _ := b.pass.TypesInfo.Defs[decl.Name].(*types.Func)
		if fn == nil {
			continue
		}
		t := fn.Type().(*types.Signature).Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			redis[n.Obj()] = true
		}
	}
	b.ifaces = soleimpl.Methods(b.pass.Pkg, func(tn *types.TypeName) bool { return redis[tn] })
}

// factOf returns the summary of fn and the function it describes: fn
// itself (this package's or an imported fact), or the sole implementation
// of an interface method.
func (b *builder) factOf(fn *types.Func) (*FuncFact, *types.Func) {
	fn = fn.Origin() // instances of generic functions share the summary
	if impl, ok := b.ifaces[fn]; ok {
		fn = impl
	}
	if impl, ok := b.projectImpls[fn]; ok {
		fn = impl
	}
	if f, ok := b.facts[fn]; ok {
		return f, fn
	}
	if fn.Pkg() == nil {
		return nil, fn
	}
	if f, ok := b.imports[fn]; ok {
		return f, fn
	}
	var f *FuncFact
	if fn.Pkg() != b.pass.Pkg {
		f = new(FuncFact)
		if !b.pass.ImportObjectFact(fn, f) {
			f = nil
		}
	}
	if recv := fn.Type().(*types.Signature).Recv(); f == nil && recv != nil && types.IsInterface(recv.Type()) {
		// An interface no package resolves (a domain port, or a narrow
		// interface of this package): its only implementation in the
		// project, in a package this one imports.
		if impl := b.project().Method(fn); impl != nil && impl.Pkg() != b.pass.Pkg {
			if g := new(FuncFact); b.pass.ImportObjectFact(impl, g) {
				b.imports[fn], b.imports[impl] = g, g
				b.projectImpls[fn] = impl
				return g, impl
			}
		}
	}
	b.imports[fn] = f
	return f, fn
}

// summarise computes ops and summaries for every function. Helpers call
// helpers, so it repeats, recomputing only functions whose local callees'
// summaries changed, until nothing changes: one round for chains of
// helpers (callees go first), a few more for cycles (a worker that
// re-enqueues). Ops of a function left dirty at the cap may point into
// an older fact of a helper; innerOf checks for that.
func (b *builder) summarise() {
	callees := map[*ast.FuncDecl][]*types.Func{}
	for _, fd := range b.decls {
		for _, c := range b.calls[fd] {
			if c.Cmd != nil {
				continue
			}
			if fn, _ := typeutil.Callee(b.pass.TypesInfo, c.Call).(*types.Func); fn != nil {
				fn = fn.Origin()
				if impl, ok := b.ifaces[fn]; ok {
					fn = impl
				}
				if b.declOf[fn] != nil {
					callees[fd] = append(callees[fd], fn)
				}
			}
		}
	}
	// Callees before callers, so that one round carries a fact up a whole
	// chain of helpers; only cycles need more rounds.
	order := callorder.CalleesFirst(b.decls, func(fd *ast.FuncDecl) []*ast.FuncDecl {
		var out []*ast.FuncDecl
		for _, fn := range callees[fd] {
			if cd := b.declOf[fn]; cd != nil {
				out = append(out, cd)
			}
		}
		return out
	})
	dirty := order
	for round := 0; round < 10 && len(dirty) > 0; round++ {
		changed := map[*types.Func]bool{}
		for _, fd := range dirty {
			ops := b.opsOf(fd)
			b.ops[fd] = ops
			fn, ok := b.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			f := b.summary(fd, ops)
			old := b.facts[fn]
			if (old == nil) != (f == nil) || old != nil && old.String() != f.String() {
				changed[fn] = true
			}
			if f == nil {
				delete(b.facts, fn)
			} else {
				b.facts[fn] = f
			}
		}
		dirty = nil
		for _, fd := range order {
			for _, fn := range callees[fd] {
				if changed[fn] {
					dirty = append(dirty, fd)
					break
				}
			}
		}
	}
}

// placeSites sets Site on every op: for an op summarised from a helper of
// this package, the op inside that helper, followed down through helpers
// until a command or a thin wrapper (whose call is then the site).
func (b *builder) placeSites() {
	for _, fd := range b.decls {
		for _, op := range b.ops[fd] {
			op.Site = b.site(op, 0)
			op.inner = b.innerOf(op)
		}
	}
}

// innerOf returns the op inside a helper of this package that op was
// summarised from, or nil. The helper's ops must still be the ones its
// fact was made from: when summarise stopped before every fact settled,
// an op may point into an older fact, and then the index alone would name
// an unrelated command.
func (b *builder) innerOf(op *Op) *Op {
	hfd := b.declOf[op.Via]
	if op.Via == nil || hfd == nil {
		return nil
	}
	var found *Op
	for _, in := range b.ops[hfd] {
		if in.fact == op.viaIdx && b.factWhere(in) == op.ViaWhere && in.Command == op.Command {
			found = in
		}
	}
	return found
}

func (b *builder) site(op *Op, depth int) *ast.CallExpr {
	if op.Via == nil || depth > 32 { // a guard: facts of a cycle point back into it
		return op.Call
	}
	hfd := b.declOf[op.Via]
	if hfd == nil || b.thinWrapper(hfd) {
		return op.Call
	}
	if inner := b.innerOf(op); inner != nil {
		return b.site(inner, depth+1)
	}
	return op.Call
}

// thinWrapper reports whether fd only forwards one command on its
// parameters to the client (func (c *Conn) Expire(key string, ttl int)
// error { _, err := c.Do("EXPIRE", key, ttl); return err }), perhaps
// with the application's constant prefix before the key: a call of it
// is the command, so the call is where a defect is reported.
func (b *builder) thinWrapper(fd *ast.FuncDecl) bool {
	ops := b.ops[fd]
	if len(ops) != 1 || ops[0].Key.PrefixedParam() < 0 {
		return false
	}
	name := strings.ToLower(fd.Name.Name)
	switch name {
	case "do", "exec", "send", "eval", "evalsha", "run", "cmd", "command":
		return true
	}
	switch strings.ToLower(strings.Fields(ops[0].Command + " ")[0]) {
	case "del", "unlink", "getdel":
		return name == "del" || name == "delete" || name == "unlink"
	case "expire", "pexpire", "expireat", "pexpireat":
		return name == "expire" || name == "pexpire" || name == "expireat" || name == "pexpireat"
	case "set", "setnx":
		return name == "set" || name == "setnx" || name == "setex" || name == "setargs"
	}
	return false
}

// factWhere is where a FuncFact says op's command is: inside the helper
// it was summarised from, or here.
func (b *builder) factWhere(op *Op) string {
	if op.Via != nil {
		return op.ViaWhere
	}
	return b.where(op.Pos())
}

func (b *builder) where(pos token.Pos) string {
	p := b.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// opsOf lists the key operations of one function.
func (b *builder) opsOf(fd *ast.FuncDecl) []*Op {
	env := b.env(fd)
	var ops []*Op
	for _, c := range b.calls[fd] {
		if c.Cmd != nil {
			ops = append(ops, b.commandOps(env, c)...)
			continue
		}
		fn, _ := typeutil.Callee(b.pass.TypesInfo, c.Call).(*types.Func)
		if fn == nil {
			continue
		}
		f, fn := b.factOf(fn)
		if f == nil || b.declOf[fn] == fd {
			continue // a retry by recursion adds no operations
		}
		args := make([]keyexpr.Key, len(c.Call.Args))
		for i, a := range c.Call.Args {
			args[i] = env.Of(a)
		}
		if op := b.countedLock(f, fn, c, args); op != nil {
			ops = append(ops, op)
		}
		// A helper that takes a key with NX and also deletes or expires it
		// holds its own lock from start to end (a retry, a with-lock
		// wrapper): to the caller it is the acquire, never a release or a
		// renewal of the caller's lock.
		ownLock, ownTTL := map[string]bool{}, map[string]bool{}
		for _, fo := range f.Ops {
			if fo.Kind == Acquire {
				ownLock[fo.Key] = true
			}
		}
		for _, fo := range f.Ops {
			if fo.Kind == Expire && ownLock[fo.Key] && !fo.InGo {
				ownTTL[fo.Key] = true // SETNX then EXPIRE inside the helper: lockexpiry judges it there
			}
		}
		for i, fo := range f.Ops {
			if (fo.Kind == Delete || fo.Kind == Expire) && ownLock[fo.Key] && !fo.InGo {
				continue // a goroutine's DEL or EXPIRE outlives the call: a handle's releaser or watchdog
			}
			if fo.Kind == Acquire && ownTTL[fo.Key] {
				fo.TTL, fo.NoTTL = true, false
			}
			key := fo.key().Subst(args)
			if !key.Known() {
				continue
			}
			if fo.Kind == Unknown && fo.ScriptParam > 0 && fo.ScriptParam <= len(c.Call.Args) {
				// exec(ctx, c, key, unlockScript, tok): the caller's script
				// says what the helper's EVAL does to the key.
				if s := b.scriptAt(c.Call.Args[fo.ScriptParam-1]); s != nil {
					for _, sop := range scriptOps(s, fo.ScriptKey) {
						sop.Key, sop.Call, sop.In, sop.Via, sop.ViaWhere, sop.fact, sop.viaIdx = key, c.Call, c.In, fn, fo.Where, -1, i
						sop.Command = fo.Command
						if p := fo.key().Param(); p >= 0 && p < len(c.Call.Args) {
							sop.KeyExpr = c.Call.Args[p]
						}
						ops = append(ops, sop)
					}
					continue
				}
			}
			op := &Op{
				Kind: fo.Kind, Command: fo.Command, Key: key,
				TTL: fo.TTL, NoTTL: fo.NoTTL, Checked: fo.Checked,
				Call: c.Call, In: c.In, Via: fn, ViaWhere: fo.Where, Judged: fo.InLock, fact: -1, viaIdx: i,
			}
			if fo.TTLParam > 0 && fo.TTLParam <= len(c.Call.Args) && !fo.TTL && !fo.NoTTL {
				// SetNX(key, 1, 0) through func (c *Cache) SetNX(key string,
				// v any, ttl time.Duration): the caller's argument decides.
				arg := c.Call.Args[fo.TTLParam-1]
				op.ttlExpr = arg
				if zero, ok := constZero(b.pass.TypesInfo, arg); ok {
					op.TTL, op.NoTTL = !zero, zero
				}
			}
			if p := fo.key().Param(); p >= 0 && p < len(c.Call.Args) {
				op.KeyExpr = c.Call.Args[p]
			}
			if fo.ValueParam >= 0 && fo.ValueParam < len(c.Call.Args) {
				op.Value = c.Call.Args[fo.ValueParam]
			} else if fo.Kind == Acquire && f.ReturnsValue >= 0 {
				// tok, err := locker.Acquire(ctx, key): the token is tok.
				if lhs := b.results[c.Call]; f.ReturnsValue < len(lhs) {
					if id, ok := lhs[f.ReturnsValue].(*ast.Ident); ok && id.Name != "_" {
						op.Value = id
					}
				}
			}
			op.In.Multi = op.In.Multi || fo.Multi
			ops = append(ops, op)
		}
	}
	b.markChecks(ops)
	return ops
}

// countedLock returns the acquire of a lock taken with INCR through a
// wrapper that returns the count (n, _ := c.Incr(ctx, key); return n > 1),
// when the caller compares the count with 1 alone, or nil.
func (b *builder) countedLock(f *FuncFact, fn *types.Func, c redismodel.Call, args []keyexpr.Key) *Op {
	if f.Counts == "" {
		return nil
	}
	fk := FactOp{Key: f.Counts}.key()
	key := fk.Subst(args)
	if !key.Known() || !DecidesByOne(b.pass, c.Call) {
		return nil
	}
	op := &Op{
		Kind: Acquire, Command: "INCR", Key: key, NoTTL: true, Counted: true,
		Call: c.Call, In: c.In, Via: fn, ViaWhere: f.CountsWhere, fact: -1, viaIdx: -2, // no op of the wrapper: it only counts
	}
	if p := fk.Param(); p >= 0 && p < len(c.Call.Args) {
		op.KeyExpr = c.Call.Args[p]
	}
	return op
}

// cacheLayer reports whether fd is a function of a downloaded package
// (a dependency, not this project; not a lock library) named as a cache
// operation and not as a lock: setCacheWithNotFound of go-zero's cache
// node, whose SETNX stores a placeholder for a row the database does not
// have. Its NX keys are cache entries; a project's own cache package may
// well hold its locks, and is not judged by name.
func (b *builder) cacheLayer(fd *ast.FuncDecl) bool {
	return fd != nil && cacheLayer(b.downloaded, b.pass.Pkg.Path(), fd.Name.Name)
}

func cacheLayer(downloaded bool, pkgPath, funcName string) bool {
	if !downloaded || locklib.IsLibPath(pkgPath) {
		return false
	}
	name := strings.ToLower(funcName)
	return strings.Contains(name, "cache") && !containsAny(name, nameLockWords)
}

// commandOps turns one command into ops on its keys.
func (b *builder) commandOps(env *keyexpr.Env, c redismodel.Call) []*Op {
	cmd := c.Cmd
	mk := func(kind OpKind, keyExpr ast.Expr) *Op {
		return &Op{Kind: kind, Command: cmd.Name, Key: env.Of(keyExpr), KeyExpr: keyExpr,
			Cmd: cmd, Call: c.Call, In: c.In, fact: -1}
	}
	var ops []*Op
	switch cmd.Name {
	case "SET", "SETNX", "SETEX", "PSETEX":
		if cmd.Key() == nil {
			return nil
		}
		op := mk(Write, cmd.Key())
		op.Value = cmd.Value
		op.TTL = cmd.SetsExpiry()
		switch {
		case cmd.AcquiresNX() && b.cacheLayer(c.In.Decl):
			// A downloaded library's cache fill (go-zero's cache node
			// writes a not-found placeholder with SETNX EX): a write.
		case cmd.AcquiresNX():
			op.Kind = Acquire
			op.Command = "SET NX"
			if cmd.Name == "SETNX" {
				op.Command = "SETNX"
			}
			op.NoTTL = cmd.NoExpiry()
			if cmd.TTL != nil && env.Of(cmd.TTL).Param() >= 0 {
				// A wrapper's expiration parameter: each caller's argument
				// decides (a constant 0 there is no expiry at all).
				op.TTL, op.ttlExpr = false, cmd.TTL
			}
		case cmd.Partial:
			op.Kind = Unknown
		case cmd.Opts.IfEq != nil:
			op.Checked = true
		}
		ops = append(ops, op)
	case "DEL", "UNLINK", "GETDEL":
		for _, k := range cmd.Keys {
			ops = append(ops, mk(Delete, k))
		}
		if keys := spreadParam(env, c.Call); keys != nil && len(cmd.Keys) == 0 {
			// func (c *Cache) Del(keys ...string) { c.rdb.Del(ctx, keys...) }:
			// a caller's Del(lockKey) deletes its first argument.
			ops = append(ops, mk(Delete, keys))
		}
	case "DELEX":
		if cmd.Key() == nil {
			return nil
		}
		op := mk(Delete, cmd.Key())
		op.Checked = cmd.Opts.IfEq != nil || cmd.Opts.IfNe != nil
		if cmd.Partial {
			op.Kind = Unknown
		}
		ops = append(ops, op)
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
		if cmd.Key() == nil {
			return nil
		}
		op := mk(Expire, cmd.Key())
		op.TTL = true
		ops = append(ops, op)
	case "GET":
		if cmd.Key() != nil {
			ops = append(ops, mk(Read, cmd.Key()))
		}
	case "GETSET":
		// The old recipe's acquire: GETSET key v, and the lock is ours
		// when the old value was empty (or the expired stamp we read).
		// It sets no TTL.
		if cmd.Key() != nil && DecidesByOldValue(b.pass, c.Call) {
			op := mk(Acquire, cmd.Key())
			op.Value, op.NoTTL = cmd.Value, true
			ops = append(ops, op)
		}
	case "INCR":
		// A counter whose first increment wins (if n > 1 { busy }) is a
		// lock taken with INCR; a rate limiter compares with its limit.
		if cmd.Key() != nil && DecidesByOne(b.pass, c.Call) {
			op := mk(Acquire, cmd.Key())
			op.NoTTL = true
			ops = append(ops, op)
		}
	case "EVAL", "EVALSHA":
		for i, k := range cmd.Keys {
			// With ARGV spread (script.Run(ctx, c, keys, argv...)) the keys
			// are known and so is the script: what it does to each key is
			// what it does with any arguments, unless it may also create,
			// delete or expire keys built from ARGV.
			if cmd.Script == nil || cmd.Partial && !cmd.Script.OnlyNamedKeysChanged() {
				op := mk(Unknown, k)
				if cmd.Script == nil && cmd.ScriptSource != nil { // Partial: spread ARGV, the keys are known
					if p := env.Of(cmd.ScriptSource).Param(); p >= 0 {
						op.scriptParam, op.scriptKey = p+1, i+1
					}
				}
				ops = append(ops, op)
				continue
			}
			n := i + 1
			if acq, ttl := cmd.Script.AcquiresNX(n); acq {
				op := mk(Acquire, k)
				op.TTL, op.NoTTL = ttl, !ttl
				if k := cmd.Script.SetValueArg(n); k > 0 && k <= len(cmd.ScriptArgs) {
					op.Value = cmd.ScriptArgs[k-1]
				} else if len(cmd.ScriptArgs) > 0 && !cmd.Partial {
					op.Value = cmd.ScriptArgs[0]
				}
				ops = append(ops, op)
			}
			if del, checked := cmd.Script.Deletes(n); del {
				op := mk(Delete, k)
				op.Checked = checked
				ops = append(ops, op)
			}
			if exp, checked := cmd.Script.Expires(n); exp {
				if acq, _ := cmd.Script.AcquiresNX(n); !acq {
					op := mk(Expire, k)
					op.TTL, op.Checked = true, checked
					ops = append(ops, op)
				}
			}
		}
	}
	out := ops[:0]
	for _, op := range ops {
		if op.Key.Known() {
			out = append(out, op)
		}
	}
	return out
}

// scriptAt reads the Lua text an argument names: a string constant, or a
// package-level variable of this package or (through its fact) another.
func (b *builder) scriptAt(e ast.Expr) *luascript.Script {
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return luascript.Parse(constant.StringVal(tv.Value))
	}
	v := keyexpr.VarOf(b.pass.TypesInfo, e)
	if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	if v.Pkg() == b.pass.Pkg {
		if b.pkgScripts == nil {
			b.pkgScripts = redismodel.PackageScripts(b.pass)
		}
		if sv, ok := b.pkgScripts[v]; ok {
			return luascript.Parse(sv.Text)
		}
		return nil
	}
	if sv, ok := b.importedScript(v); ok {
		return luascript.Parse(sv.Text)
	}
	return nil
}

// scriptOps are what a script does to its KEYS[n]: an NX acquire, a
// delete, a renewal (never an expire of the key it creates itself).
func scriptOps(s *luascript.Script, n int) []*Op {
	var ops []*Op
	if acq, ttl := s.AcquiresNX(n); acq {
		ops = append(ops, &Op{Kind: Acquire, TTL: ttl, NoTTL: !ttl})
	}
	if del, checked := s.Deletes(n); del {
		ops = append(ops, &Op{Kind: Delete, Checked: checked})
	}
	if exp, checked := s.Expires(n); exp {
		if acq, _ := s.AcquiresNX(n); !acq {
			ops = append(ops, &Op{Kind: Expire, TTL: true, Checked: checked})
		}
	}
	return ops
}

// constZero reports whether e is a constant, and whether it is zero.
func constZero(info *types.Info, e ast.Expr) (zero, ok bool) {
	tv, found := info.Types[e]
	if !found || tv.Value == nil {
		return false, false
	}
	return constant.Sign(tv.Value) == 0, tv.Value.Kind() == constant.Int || tv.Value.Kind() == constant.Float
}

// spreadParam returns the last argument of call when it spreads a
// parameter of the enclosing function (keys...), else nil.
func spreadParam(env *keyexpr.Env, call *ast.CallExpr) ast.Expr {
	if !call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return nil
	}
	last := call.Args[len(call.Args)-1]
	id, ok := ast.Unparen(last).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := env.Info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	if _, isParam := env.Params[v]; !isParam {
		return nil
	}
	return last
}

// markChecks sets Checked on writes queued in a WATCH transaction that
// read the same key, and ReadBefore on unchecked deletes and expires that
// follow a GET of the same key in the same function.
func (b *builder) markChecks(ops []*Op) {
	for i, op := range ops {
		if op.Kind != Delete && op.Kind != Expire && op.Kind != Write || op.Checked {
			continue
		}
		for _, prev := range ops[:i] {
			if prev.Kind != Read || !keyexpr.Same(prev.Key, op.Key, true) {
				continue
			}
			if op.In.Watch != nil && op.In.Multi && prev.In.Watch == op.In.Watch {
				op.Checked = true
				op.ReadBefore = nil
				break
			}
			if op.ReadBefore == nil {
				op.ReadBefore = prev
			}
		}
	}
}

// summary builds the fact of one function from its ops: only ops whose key
// depends on a parameter or is stable across functions mean anything to a
// caller.
func (b *builder) summary(fd *ast.FuncDecl, ops []*Op) *FuncFact {
	env := b.env(fd)
	f := &FuncFact{ReturnsValue: -1}
	index := map[FactOp]int{}
	for _, op := range ops {
		if op.Kind == Read && !op.Key.HasParams() {
			continue
		}
		if !op.Key.HasParams() && !op.Key.Anchored {
			continue
		}
		k := op.Key.Exported()
		fo := FactOp{
			Kind: op.Kind, Command: op.Command, Key: k.Exact, Anchored: k.Anchored,
			ValueParam: -1, TTL: op.TTL, NoTTL: op.NoTTL, Checked: op.Checked,
			Multi: op.In.Multi, InGo: op.In.InGo,
		}
		fo.Where = b.factWhere(op)
		if op.Value != nil {
			fo.ValueParam = valueParam(env.Of(op.Value))
		}
		if op.ttlExpr != nil && !op.TTL && !op.NoTTL {
			fo.TTLParam = env.Of(op.ttlExpr).Param() + 1
		}
		if op.NoTTL && op.Kind == Acquire {
			if p := zeroTTLBranch(b.pass.TypesInfo, fd, op.Call); p >= 0 {
				// SETNX without a TTL only when the caller passes none
				// (if expires > 0 { return withTTL(...) }): the caller's
				// argument decides, as for a TTL passed through.
				fo.NoTTL, fo.TTLParam = false, p+1
			}
		}
		fo.ScriptParam, fo.ScriptKey = op.scriptParam, op.scriptKey
		if i, ok := index[fo]; ok {
			// One command reached again by another path: listed once, or
			// facts along a cycle of helpers (a worker that re-enqueues)
			// grow by a copy every round and never settle.
			op.fact = i
			continue
		}
		op.fact = len(f.Ops)
		index[fo] = op.fact
		f.Ops = append(f.Ops, fo)
	}
	f.Counts, f.CountsWhere = b.returnsCount(env, fd)
	if len(f.Ops) == 0 && f.Counts == "" {
		return nil
	}
	f.ReturnsValue = returnsValue(env, fd, ops)
	return f
}

// returnsCount returns the key (with $pN$ for parameters) of an INCR whose
// reply fd returns as its first result, directly (return c.Incr(ctx,
// key).Result()) or through a local (n, err := ...; return n, nil), and
// where the INCR is; or "".
func (b *builder) returnsCount(env *keyexpr.Env, fd *ast.FuncDecl) (string, string) {
	info := b.pass.TypesInfo
	if fd.Type.Results == nil || len(fd.Type.Results.List) == 0 {
		return "", ""
	}
	for _, c := range b.calls[fd] {
		if c.Cmd == nil || c.Cmd.Name != "INCR" || c.Cmd.Key() == nil || c.In.Multi || c.In.Pipeline {
			continue
		}
		k := env.Of(c.Cmd.Key()).Exported()
		if !k.HasParams() {
			continue
		}
		replies := map[types.Object]bool{}
		holds := func(e ast.Expr) bool {
			for {
				switch x := ast.Unparen(e).(type) {
				case *ast.CallExpr:
					if x == c.Call {
						return true
					}
					sel, ok := x.Fun.(*ast.SelectorExpr)
					if !ok || len(x.Args) != 0 || (sel.Sel.Name != "Result" && sel.Sel.Name != "Val" && sel.Sel.Name != "Int64") {
						return false
					}
					e = sel.X
				case *ast.Ident:
					return replies[info.Uses[x]]
				default:
					return false
				}
			}
		}
		found := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				if len(n.Rhs) == 1 && holds(n.Rhs[0]) {
					if id, ok := n.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
						replies[info.ObjectOf(id)] = true
					}
				}
			case *ast.ReturnStmt:
				if len(n.Results) > 0 && holds(n.Results[0]) {
					found = true
				}
			}
			return !found
		})
		if found {
			return k.Exact, b.where(c.Call.Pos())
		}
	}
	return "", ""
}

// zeroTTLBranch returns the index of a numeric parameter p of fd when
// call runs only where p is not positive: inside if p <= 0 (or p == 0,
// p < 1) or the else of if p > 0 (or p != 0, p >= 1), or after an if p > 0
// whose body returns, at the top level of fd's body. -1 otherwise.
func zeroTTLBranch(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) int {
	if fd.Body == nil || fd.Type.Params == nil {
		return -1
	}
	params := map[types.Object]int{}
	i := 0
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if o := info.Defs[n]; o != nil {
				if b, ok := o.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsNumeric != 0 {
					params[o] = i
				}
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	// positive returns the parameter a condition tests for > 0 (pos
	// true) or <= 0 (pos false).
	test := func(cond ast.Expr) (int, bool, bool) {
		be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
		if !ok {
			return -1, false, false
		}
		id, ok := ast.Unparen(be.X).(*ast.Ident)
		if !ok {
			return -1, false, false
		}
		p, ok := params[info.Uses[id]]
		tv := info.Types[be.Y]
		if !ok || tv.Value == nil {
			return -1, false, false
		}
		n, exact := constant.Int64Val(constant.ToInt(tv.Value))
		if !exact {
			return -1, false, false
		}
		switch {
		case be.Op == token.GTR && n == 0, be.Op == token.NEQ && n == 0, be.Op == token.GEQ && n == 1:
			return p, true, true
		case be.Op == token.LEQ && n == 0, be.Op == token.EQL && n == 0, be.Op == token.LSS && n == 1:
			return p, false, true
		}
		return -1, false, false
	}
	in := func(n ast.Node) bool { return n != nil && n.Pos() <= call.Pos() && call.End() <= n.End() }
	returns := func(b *ast.BlockStmt) bool {
		if len(b.List) == 0 {
			return false
		}
		_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
		return ok
	}
	found := -1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || found >= 0 {
			return found < 0
		}
		p, pos, ok := test(ifs.Cond)
		if !ok {
			return true
		}
		switch {
		case !pos && in(ifs.Body), pos && ifs.Else != nil && in(ifs.Else):
			found = p
		}
		return true
	})
	if found >= 0 {
		return found
	}
	for _, st := range fd.Body.List {
		if st.Pos() >= call.Pos() {
			break
		}
		if ifs, ok := st.(*ast.IfStmt); ok && ifs.Init == nil && ifs.Else == nil && returns(ifs.Body) {
			if p, pos, ok := test(ifs.Cond); ok && pos {
				return p
			}
		}
	}
	return -1
}

// returnsValue finds a result that returns the value of an acquire in fd.
func returnsValue(env *keyexpr.Env, fd *ast.FuncDecl, ops []*Op) int {
	want := map[string]bool{}
	for _, op := range ops {
		if op.Kind == Acquire && op.Value != nil && op.Via == nil {
			if k := env.Of(op.Value); k.Known() {
				want[k.Exact] = true
			}
		}
	}
	if len(want) == 0 {
		return -1
	}
	idx := -1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for i, r := range n.Results {
				if want[env.Of(r).Exact] {
					idx = i
				}
			}
		}
		return true
	})
	return idx
}

// joinLocks groups ops into lock lifecycles: each NX acquire starts (or
// joins) a lock, and every other op on the same key joins it.
func (b *builder) joinLocks() {
	var all []located
	for _, fd := range b.decls {
		for _, op := range b.ops[fd] {
			all = append(all, located{op, fd})
		}
	}
	fdOf := map[*Op]*ast.FuncDecl{}
	b.namespaces = b.findNamespaces(all)
	byShape := map[string][]*Lock{} // keys that are Same always share a shape
	for _, a := range all {
		if a.op.Kind != Acquire {
			continue
		}
		fdOf[a.op] = a.fd
		var lock *Lock
		for _, l := range byShape[a.op.Key.Shape] {
			first := l.Acquires[0]
			if b.same(first.Key, a.op.Key, fdOf[first] == a.fd) {
				lock = l
				break
			}
		}
		if lock == nil {
			lock = &Lock{Key: a.op.Key, recordPkg: containsAny(b.pass.Pkg.Name(), recordTypeWords)}
			b.locks = append(b.locks, lock)
			byShape[a.op.Key.Shape] = append(byShape[a.op.Key.Shape], lock)
		}
		lock.Acquires = append(lock.Acquires, a.op)
		a.op.lock = lock
	}
	// A key stored in a struct field next to the acquire (return
	// &Lease{key: key}) names the lock wherever that field is used.
	aliases := map[string][]*Lock{}
	var stores []fieldStore
	if len(b.locks) > 0 {
		stores = b.fieldStores()
	}
	for _, st := range stores {
		for _, l := range byShape[st.value.Shape] {
			for _, acq := range l.Acquires {
				if keyexpr.Same(acq.Key, st.value, fdOf[acq] == st.fd) {
					aliases[st.field.Exact] = append(aliases[st.field.Exact], l)
					break
				}
			}
		}
	}
	b.aliasRebuiltKeys(stores, fdOf, aliases)
	handles := b.aliasThroughConstructors(stores, fdOf, aliases)
	for _, a := range all {
		if a.op.Kind == Acquire {
			continue
		}
		var lock *Lock
	find:
		for _, l := range byShape[a.op.Key.Shape] {
			for _, acq := range l.Acquires {
				if b.same(acq.Key, a.op.Key, fdOf[acq] == a.fd) {
					lock = l
					break find
				}
			}
		}
		if lock == nil && len(aliases[a.op.Key.Exact]) > 0 {
			lock = aliases[a.op.Key.Exact][0]
		}
		if lock != nil {
			lock.Ops = append(lock.Ops, a.op)
			a.op.lock = lock
		}
	}
	b.joinByParam(all)
	// Acquires that build their handles with one constructor (TryLock and
	// Lock both returning newLock(c, key, value)) are one lock API: one
	// lock, whose release the handle's methods do.
	for _, f := range slices.Sorted(maps.Keys(handles)) {
		ls := aliases[f]
		for _, l := range ls[1:] {
			if l != ls[0] && slices.Contains(b.locks, l) && slices.Contains(b.locks, ls[0]) {
				b.merge(ls[0], l)
			}
		}
	}
	b.judgeLocalHelpers(all)
	b.markWrappersUsedAsLocks(all)
}

// same is keyexpr.Same, except that keys a namespace helper makes from a
// parameter or a local (see builder.namespaces) are the same only within
// one function: across functions the helper is no evidence, so callers
// join them through facts, and lock APIs named as such (Lock(key) and
// Unlock(key)) through joinByParam.
func (b *builder) same(x, y keyexpr.Key, sameFunc bool) bool {
	if !sameFunc && b.namespaces[x.Shape] {
		return false
	}
	return keyexpr.Same(x, y, sameFunc)
}

// findNamespaces returns the shapes of keys made by one helper from a
// parameter alone that a plain SET writes in a function taking no lock on
// that shape: a store's Store(key)/Del(key)/Expire(key) beside its
// Lock(key), all through serialKey(key).
func (b *builder) findNamespaces(all []located) map[string]bool {
	ns := map[string]bool{}
	for _, a := range all {
		k := a.op.Key
		if a.op.Kind != Write || k.ParamUnderHelper() < 0 || ns[k.Shape] {
			continue
		}
		if !slices.ContainsFunc(b.ops[a.fd], func(o *Op) bool { return o.Kind == Acquire && o.Key.Shape == k.Shape }) {
			ns[k.Shape] = true
		}
	}
	return ns
}

// keyParam returns N when k is parameter N, or a namespace helper's key
// made from parameter N; else -1.
func (b *builder) keyParam(k keyexpr.Key) int {
	if n := k.Param(); n >= 0 || !b.namespaces[k.Shape] {
		return n
	}
	return k.ParamUnderHelper()
}

// markWrappersUsedAsLocks sets usedAsLock on the lock of a command
// wrapper (func (c *Client) SetNX(key, value string, ttl int64)) when a
// lock of the package, named as one, takes its key through it: the
// wrapper's own SETNX+EXPIRE is then a lock's acquire, judged there.
func (b *builder) markWrappersUsedAsLocks(all []located) {
	for _, l := range b.locks {
		for _, a := range l.Acquires {
			if a.Via != nil || !commandWrapper(a.In.Decl) {
				continue
			}
			fn, _ := b.pass.TypesInfo.Defs[a.In.Decl.Name].(*types.Func)
			for _, o := range all {
				if fn != nil && o.op.Via == fn && o.op.lock != nil && o.op.lock != l && o.op.lock.lockWord() {
					l.usedAsLock = true
				}
			}
		}
	}
}

// aliasRebuiltKeys adds to aliases the keys a handle rebuilds from the
// name it keeps: an acquire of prefix+key that stores only key in the
// handle it returns (&redisLock{key: key}) is released and renewed
// where the handle rebuilds prefix+l.key. The acquire's key with the
// field in place of the name is that lock's key, when nothing else in it
// depends on the acquiring function's parameters or locals.
func (b *builder) aliasRebuiltKeys(stores []fieldStore, fdOf map[*Op]*ast.FuncDecl, aliases map[string][]*Lock) {
	for _, st := range stores {
		name := st.value.Exact
		if !placeholderOnly.MatchString(name) {
			continue
		}
		for _, l := range b.locks {
			for _, acq := range l.Acquires {
				if fdOf[acq] != st.fd || acq.Via != nil || acq.Key.Exact == name || !strings.Contains(acq.Key.Exact, name) {
					continue
				}
				alias := strings.ReplaceAll(acq.Key.Exact, name, st.field.Exact)
				if !strings.Contains(alias, "$") && !slices.Contains(aliases[alias], l) {
					aliases[alias] = append(aliases[alias], l)
				}
			}
		}
	}
}

// placeholderOnly matches a key that is one parameter or local.
var placeholderOnly = regexp.MustCompile(`^\$[pl]\d+\$$`)

// aliasThroughConstructors adds to aliases the fields that a function of
// the package fills from its parameter (newLock(c, key, value) returning
// &Lock{key: key}) when the function that acquires a lock passes it the
// lock's key: the handle it builds names that lock, as when the acquirer
// fills the field itself. It returns the fields so aliased.
func (b *builder) aliasThroughConstructors(stores []fieldStore, fdOf map[*Op]*ast.FuncDecl, aliases map[string][]*Lock) (fields map[string]bool) {
	info := b.pass.TypesInfo
	byFunc := map[*types.Func][]fieldStore{}
	for _, st := range stores {
		if st.value.Param() < 0 || st.fd == nil {
			continue
		}
		if fn, ok := info.Defs[st.fd.Name].(*types.Func); ok {
			byFunc[fn] = append(byFunc[fn], st)
		}
	}
	if len(byFunc) == 0 {
		return nil
	}
	fields = map[string]bool{}
	for _, l := range b.locks {
		for _, acq := range l.Acquires {
			fd := fdOf[acq]
			if fd == nil || fd.Body == nil || acq.Via != nil {
				continue
			}
			env := b.env(fd)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn, _ := typeutil.Callee(info, call).(*types.Func)
				for _, st := range byFunc[fn] {
					if i := st.value.Param(); i < len(call.Args) && keyexpr.Same(acq.Key, env.Of(call.Args[i]), true) {
						fields[st.field.Exact] = true
						if !slices.Contains(aliases[st.field.Exact], l) {
							aliases[st.field.Exact] = append(aliases[st.field.Exact], l)
						}
					}
				}
				return true
			})
		}
	}
	return fields
}

// located is an op with its function.
type located struct {
	op *Op
	fd *ast.FuncDecl
}

// fieldStore is a value stored into a struct field in a function.
type fieldStore struct {
	fd           *ast.FuncDecl
	field, value keyexpr.Key
}

// fieldStores lists T{f: v}, &T{f: v} and x.f = v in every function.
func (b *builder) fieldStores() []fieldStore {
	var out []fieldStore
	info := b.pass.TypesInfo
	for _, fd := range b.decls {
		env := b.env(fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				t := info.TypeOf(n)
				if t == nil {
					return true
				}
				if _, ok := t.Underlying().(*types.Struct); !ok {
					return true
				}
				for _, elt := range n.Elts {
					kv, ok := elt.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if id, ok := kv.Key.(*ast.Ident); ok {
						if v := env.Of(kv.Value); v.Known() {
							out = append(out, fieldStore{fd, keyexpr.Field(t, id.Name), v})
						}
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, lhs := range n.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
						if v := env.Of(n.Rhs[i]); v.Known() {
							out = append(out, fieldStore{fd, env.Of(sel), v})
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// serialized matches a value made by one call from a parameter alone
// (and perhaps the receiver): data, err := r.serialize(value), or
// json.Marshal(value). Groups: the callee, a receiver held in a package
// variable or a field, the parameter.
var serialized = regexp.MustCompile(`^(?:result\()?call\(([^,$]+),(?:\$l\d+\$,|(var\([^()]+\)|field\([^()]+\)),)?\$p(\d+)\$\)(?:,0\))?$`)

// serializerName matches the methods a serializer kept in a variable
// serializes with (var json = jsoniter.ConfigCompatibleWithStandardLibrary;
// json.Marshal(v), s.codec.Encode(v)). Any other method of a shared value
// may add what the parameter lacks (a nonce, a node name).
var serializerName = regexp.MustCompile(`(?i)\.(?:marshal|encode|serializ)[a-z]*$`)

// valueParam returns the parameter whose value an acquire stores: the
// parameter itself, or its serialized form, which is as constant (or as
// unique) as the parameter is. -1 when it is neither.
func valueParam(v keyexpr.Key) int {
	if p := v.Param(); p >= 0 {
		return p
	}
	m := serialized.FindStringSubmatch(v.Exact)
	if m == nil || m[2] != "" && !serializerName.MatchString(m[1]) {
		return -1
	}
	n, _ := strconv.Atoi(m[3])
	return n
}

// judgeLocalHelpers marks ops summarised from a helper of this package as
// Judged when the helper's own op is part of a lock: the defect is at the
// helper, reported once there, not at every call.
func (b *builder) judgeLocalHelpers(all []located) {
	for _, a := range all {
		op := a.op
		if op.Via == nil || op.Judged {
			continue
		}
		if inner := b.innerOf(op); inner != nil && inner.lock != nil && (inner.Kind != Acquire || len(inner.lock.Ops) > 0) {
			op.Judged = true
		}
	}
}

// IsTestFile reports whether pos is in a _test.go file. Rules stay silent
// there: tests delete and overwrite lock keys on purpose to set up cases.
func IsTestFile(fset *token.FileSet, pos token.Pos) bool {
	return strings.HasSuffix(fset.Position(pos).Filename, "_test.go")
}

// SilenceTests makes pass drop diagnostics positioned in _test.go files,
// for rules that judge whole packages rather than single ops.
func SilenceTests(pass *analysis.Pass) {
	report := pass.Report
	pass.Report = func(d analysis.Diagnostic) {
		if !IsTestFile(pass.Fset, d.Pos) {
			report(d)
		}
	}
}

// joinByParam joins a lock API whose functions take the key as a
// parameter: an acquire of parameter key with a value made inside the
// function (not a thin wrapper passing the value through), in a function
// named like an acquire (Lock, TryLock, Acquire, Obtain), and ops on a
// parameter key in sibling methods of the same type, or in functions of
// the same file, named like a release or renewal (Unlock, Release,
// Refresh, Extend). Callers are unknown here, so the names are the only
// evidence that SetNX(key)/Del(key) form a lock and not a thin wrapper of
// the client; without them, callers still join the ops through facts.
func (b *builder) joinByParam(all []located) {
	for _, a := range all {
		op := a.op
		if op.Kind != Acquire || op.lock == nil || !acquiredOnlyIn(op.lock, op.In.Decl) || b.keyParam(op.Key) < 0 {
			continue
		}
		// The value made inside (an INCR's count always is), or a lock API
		// named so (LockAdd(key, id)): a thin wrapper named after the
		// command passes both through.
		if op.Value == nil && op.Command != "INCR" || !named(a.fd, acquireWords) && !lockReceiver(a.fd) || b.env(a.fd).Of(op.Value).HasParams() && !hasWord(a.fd.Name.Name, lockWords) {
			continue
		}
		l := op.lock
		// A function that deletes the key it took runs its own section
		// (LockCall(key, fn): take, run fn, DEL): it hands no lock to its
		// caller, so a sibling named only by a data verb (Remove(key) of a
		// cache package) is not its other half.
		givesBack := slices.ContainsFunc(b.ops[a.fd], func(o *Op) bool {
			return o.Kind == Delete && o.Via == nil && keyexpr.Same(o.Key, op.Key, true)
		})
		for _, o := range all {
			if o.fd == a.fd || b.keyParam(o.op.Key) < 0 || !b.siblings(a.fd, o.fd) && !b.handleOf(a.fd, o.fd) {
				continue
			}
			paired := pairedRelease(o.fd) && hasWord(a.fd.Name.Name, []string{"acquire", "lock", "obtain"}) && !givesBack
			if o.op.Kind == Acquire || !releaseNamed(o.fd) && !paired {
				continue
			}
			if o.op.Kind == Expire && !lockReceiver(a.fd) && !containsAny(o.fd.Name.Name, leaseRenewWords) {
				// A cache client's ExtendTTL(key) beside its
				// AcquireLease(key) extends whatever key it is given: on
				// a type not named as a lock, extend, refresh and touch
				// name cache operations as often, and only a renewal
				// whose name speaks of a lock or lease joins it.
				continue
			}
			if other := o.op.lock; other != nil {
				// Lock(key) and TryLock(key) released by one Unlock(key):
				// one lock API, one lifecycle.
				if other.ByParam && other != l {
					b.merge(other, l)
					l = other
				}
				continue
			}
			l.Ops = append(l.Ops, o.op)
			l.ByParam = true
			o.op.lock = l
		}
	}
	// The same key built from the same parameters in sibling functions
	// (Sprintf("%s_%s", prefix, id) in StartLimit and CancelLimit) is one
	// key, even without a constant part to anchor it.
	for _, a := range all {
		op := a.op
		if op.Kind != Acquire || op.lock == nil || !op.Key.HasParams() || op.Key.Param() >= 0 || op.Key.Anchored {
			continue
		}
		for _, o := range all {
			if o.fd == a.fd || o.op.lock != nil || o.op.Kind == Acquire || o.op.Key.Exact != op.Key.Exact || !b.siblings(a.fd, o.fd) {
				continue
			}
			op.lock.Ops = append(op.lock.Ops, o.op)
			o.op.lock = op.lock
		}
	}
	for _, l := range b.locks {
		sort.SliceStable(l.Ops, func(i, j int) bool { return b.before(l.Ops[i].Pos(), l.Ops[j].Pos()) })
	}
}

// lockReceiver reports whether fd is a method of a type named as a lock
// (RedisLock.Set, Mutex.Take).
func lockReceiver(fd *ast.FuncDecl) bool {
	if fd.Recv == nil {
		return false
	}
	recv := types.ExprString(fd.Recv.List[0].Type)
	return containsAny(recv, lockWords) || hasWord(strings.TrimLeft(recv, "*"), electionWords)
}

// electionWords name a leader election's type (redisElector,
// LeaderElection) as whole words: its key is the leader's lock. As
// substrings they would match Selector and Selection.
var electionWords = []string{"elector", "election"}

// acquiredOnlyIn reports whether every acquire of l is in fd.
func acquiredOnlyIn(l *Lock, fd *ast.FuncDecl) bool {
	for _, a := range l.Acquires {
		if a.In.Decl != fd {
			return false
		}
	}
	return true
}

// before orders positions by file name, then offset. Comparing token.Pos
// across files would follow the order the files were added to the file
// set, which a loader that parses in parallel changes from run to run:
// the lock's first acquire, cited in reports, would change with it.
func (b *builder) before(x, y token.Pos) bool {
	fx, fy := b.pass.Fset.File(x), b.pass.Fset.File(y)
	if fx != nil && fy != nil && fx != fy {
		return fx.Name() < fy.Name()
	}
	return x < y
}

// merge moves the ops of from into into and drops from.
func (b *builder) merge(into, from *Lock) {
	for _, op := range from.Acquires {
		op.lock = into
	}
	for _, op := range from.Ops {
		op.lock = into
	}
	into.Acquires = append(into.Acquires, from.Acquires...)
	into.Ops = append(into.Ops, from.Ops...)
	into.usedAsLock = into.usedAsLock || from.usedAsLock
	sort.SliceStable(into.Acquires, func(i, j int) bool { return b.before(into.Acquires[i].Pos(), into.Acquires[j].Pos()) })
	for i, l := range b.locks {
		if l == from {
			b.locks = append(b.locks[:i], b.locks[i+1:]...)
			break
		}
	}
}

var (
	acquireWords = []string{"lock", "acquire", "obtain", "grab", "take", "mutex"}
	// acquireEvidence name an acquire on their own; "take" and "grab" also
	// name reads (a cache's doTake), so they need a lock word beside them.
	acquireEvidence = []string{"lock", "acquire", "obtain", "mutex"}
	releaseWords    = []string{"unlock", "release", "free", "drop", "renew", "refresh", "extend", "keepalive", "heartbeat", "touch", "owner", "held", "check"}
	// releaseNameWords name a release or renewal as whole words of a
	// function's name together with a lock word (LockDel, ClearLock,
	// RemoveMutex, RmLock, UnRedisLock): alone they name cache and data operations too
	// (deleteShopCache), and as substrings they match too much ("del" in
	// "model").
	releaseNameWords = []string{"del", "delete", "un", "rm", "remove", "clear", "reset", "finish", "unset", "leave", "exit", "expire", "done"}
)

// Flag reports whether l looks like a state flag toggled by two
// operations rather than a lock: set with NX and no TTL in one function,
// deleted in others (Pause/Unpause, Enable/Disable), with no lock word in
// the key or in the names of those functions, and no TTL anywhere. A lock
// held across a critical section is released in the function that took
// it, or is named like one; a flag is meant to outlive its setter, so
// "held forever" and "deleted without an owner check" are its design.
func (l *Lock) Flag() bool {
	if l.ByParam {
		return false
	}
	if containsAny(unqualified(l.Key.String()), lockWords) {
		return false
	}
	for _, a := range l.Acquires {
		if !a.NoTTL || a.In.Decl == nil || named(a.In.Decl, acquireWords) || named(a.In.Decl, lockWords) || containsAny(a.KeyText(), lockWords) {
			return false
		}
	}
	for _, op := range l.Ops {
		if op.TTL || op.Kind == Expire || op.Kind == Unknown || op.In.Decl == nil {
			return false
		}
		if op.Kind != Delete {
			continue
		}
		if named(op.In.Decl, releaseWords) || named(op.In.Decl, acquireWords) || containsAny(op.KeyText(), lockWords) {
			return false
		}
		for _, a := range l.Acquires {
			if a.In.Decl == op.In.Decl {
				return false
			}
		}
	}
	return true
}

// lockWords name locks in keys, variables and functions; a marker that
// says work is in progress (MarkGuildProcessing, job:running) is a lock
// taken for that work.
var lockWords = append(slices.Clip(nameLockWords), progressWords...)

// nameLockWords are the lock words that name a lock wherever they stand.
var nameLockWords = []string{"lock", "mutex", "lease", "sema", "leader", "master", "guard"}

// progressWords are the lock words that say work is in progress. In a key
// they mark it (order:processing:<id>); in a function's name only when the
// function sends the command itself (MarkProcessing): a caller further up
// (triggerPostProcessingTasks) names its own work, not the key.
var progressWords = []string{"processing", "inprogress", "running"}

// nameSaysLock reports whether a function's name has a lock word; sends
// says whether the function sends the command on the key itself.
func nameSaysLock(name string, sends bool) bool {
	if containsAny(name, nameLockWords) {
		return true
	}
	return sends && containsAny(name, progressWords)
}

// leaseRenewWords name a renewal of a lock, not of any key: a lock word,
// or a verb only leases take.
var leaseRenewWords = append([]string{"renew", "keepalive", "heartbeat"}, lockWords...)

// dataWords name keys that record that something happened once (a
// message consumed, a request seen), written with NX so the first writer
// wins: an idempotency or dedup record, not a lock.
var dataWords = []string{"idem", "dedup", "duplicate", "done", "complete", "processed", "seen", "nonce", "consumed", "handled", "replay"}

// pendingWords, in a key, say that work is waiting to run (a retry
// pending, a job queued, a send scheduled): an NX key so named keeps a
// second run from being scheduled, and whoever runs the work drops it,
// often first. It records scheduled work; a lock marks work in progress
// (progressWords). Only the key counts: a function named after pending
// work (processPendingOrders) may well lock each order it takes.
var pendingWords = []string{"pending", "queued", "scheduled"}

// throttleWords say that an NX key lets work run at most once per TTL: a
// cooldown, a debounce, a rate limit, a touch of a last-used time.
var throttleWords = []string{"throttl", "cooldown", "debounce", "ratelimit", "rate-limit", "rate_limit", "touch"}

// throttle reports whether l is a throttle rather than a lock: its key
// names one (throttleWords) and no lock, every acquire gives it a TTL,
// and nothing deletes, renews or scripts it. The key is there to
// expire, so that the work runs at most once per TTL; no holder gives it
// back, and two runs a TTL apart are what it allows. A lock word only in the variable or function holding the key
// (lockKey := "api-key-touch:" + id) does not outweigh the key's text.
func (l *Lock) throttle() bool {
	key := unqualified(l.Key.String())
	if l.ByParam || containsAny(key, lockWords) || !containsAny(key, throttleWords) {
		return false
	}
	for _, a := range l.Acquires {
		if !a.TTL {
			return false
		}
	}
	for _, op := range l.Ops {
		if op.Kind == Delete || op.Kind == Expire || op.Kind == Unknown {
			return false
		}
	}
	return true
}

// IsLock reports whether there is evidence that the NX key l is a lock
// rather than data written once: a record, a marker, a flag. Without a
// lock word in its keys or the functions around it, an NX write is data
// when it is a state flag (Flag), when nobody reads whether it succeeded
// and the function that wrote it does not delete it (a cache fill or a
// seed), or when its key or function names a record of something done
// (dataWords). When unsure, rules stay silent.
func (l *Lock) IsLock(pass *analysis.Pass) bool {
	if a := l.isLock.Load(); l.done && a != 0 {
		return a == answerYes
	}
	is := l.isLockNow(pass)
	if l.done {
		l.isLock.Store(answerOf(is))
	}
	return is
}

func (l *Lock) isLockNow(pass *analysis.Pass) bool {
	if l.Flag() || l.rolledBack(pass) || l.throttle() {
		return false
	}
	if l.usedAsLock || l.lockWord() {
		return true
	}
	discarded := true
	for _, a := range l.Acquires {
		if onlyPrinted(pass, a) {
			continue // a demo printing what SETNX answered
		}
		if !outcomeIgnored(pass, a, 0) && !commandWrapper(a.In.Decl) || l.releasedIn(pass, a) {
			discarded = false // its outcome is read, or it is taken and released like a lock
		}
		if recordNamed(a) || storesPayload(pass, a) || l.recordPkg && a.In.Decl != nil && a.In.Decl.Recv != nil {
			return false // a record store's method: Guard.Check of package idempotent
		}
	}
	return !discarded
}

// storesPayload reports whether a stores an encoded object (the bytes of
// a json, xml, msgpack, protobuf or yaml Marshal, or their string): the NX
// creates a record — an invite, a job, a cached response — that readers
// decode, where a lock stores a token.
func storesPayload(pass *analysis.Pass, a *Op) bool {
	v := a.Value
	if v == nil || a.In.Decl == nil {
		return false
	}
	if conv, ok := ast.Unparen(v).(*ast.CallExpr); ok && len(conv.Args) == 1 {
		if tv, ok := pass.TypesInfo.Types[conv.Fun]; ok && tv.IsType() {
			v = conv.Args[0] // string(raw)
		}
	}
	if call, ok := ast.Unparen(v).(*ast.CallExpr); ok {
		return isMarshal(pass, call)
	}
	id, ok := ast.Unparen(v).(*ast.Ident)
	if !ok {
		return false
	}
	obj := pass.TypesInfo.Uses[id]
	if obj == nil {
		return false
	}
	found, other := false, false
	ast.Inspect(a.In.Decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if lid, ok := l.(*ast.Ident); ok && pass.TypesInfo.ObjectOf(lid) == obj {
				rhs := as.Rhs[min(i, len(as.Rhs)-1)]
				if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && isMarshal(pass, call) {
					found = true
				} else {
					other = true
				}
			}
		}
		return true
	})
	return found && !other
}

// isMarshal reports whether call encodes an object: a Marshal function of
// an encoding package (encoding/json or xml, msgpack, protobuf, yaml,
// sonic, jsoniter).
func isMarshal(pass *analysis.Pass, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || !strings.HasPrefix(fn.Name(), "Marshal") {
		return false
	}
	path := fn.Pkg().Path()
	for _, p := range []string{"encoding/", "msgpack", "protobuf", "yaml", "sonic", "jsoniter", "json"} {
		if strings.Contains(path, p) {
			return true
		}
	}
	return false
}

// onlyPrinted is OnlyPrinted through helpers of this package.
func onlyPrinted(pass *analysis.Pass, a *Op) bool {
	for depth := 0; a.inner != nil && depth < 8; depth++ {
		a = a.inner
	}
	return OnlyPrinted(pass, a)
}

// commandWrapper reports whether fd is named after the command it sends
// (a data type's SetNX method): returning the NX outcome to its caller
// says nothing about a lock.
func commandWrapper(fd *ast.FuncDecl) bool {
	if fd == nil {
		return false
	}
	switch strings.ToLower(fd.Name.Name) {
	case "setnx", "setnxex", "setifabsent", "setifnotexists", "setifnotexist", "setargs", "set", "add":
		return true
	}
	return false
}

// takenByWrappers reports whether every acquire of l is a client
// wrapper's own command (SetNX(key, v, ttl) of an adapter) on a key made
// from its parameter: whatever lock there is, its callers hold it.
func (l *Lock) takenByWrappers() bool {
	for _, a := range l.Acquires {
		if a.Via != nil || !commandWrapper(a.In.Decl) || !a.Key.HasParams() {
			return false
		}
	}
	return len(l.Acquires) > 0
}

// outcomeIgnored is OutcomeIgnored through helpers of this package: an
// acquire in a helper whose own SETNX result is ignored hands its caller
// an error at most, not the NX outcome. An imported helper's is taken as
// read.
func outcomeIgnored(pass *analysis.Pass, a *Op, depth int) bool {
	if a.Via == nil || a.inner == nil {
		return OutcomeIgnored(pass, a)
	}
	if depth > 8 {
		return false
	}
	return outcomeIgnored(pass, a.inner, depth+1)
}

// releasedIn reports whether the key is deleted in the function that
// takes it with a, after it (directly, in a goroutine or deferred; in the
// same case of a switch): acquire, work, release. A delete before the NX
// write is an invalidation, then a refill.
func (l *Lock) releasedIn(pass *analysis.Pass, a *Op) bool {
	for _, op := range l.Ops {
		if op.Kind == Delete && a.In.Decl != nil && op.In.Decl == a.In.Decl && op.Pos() > a.Pos() && caseOf(pass, op.Call) == caseOf(pass, a.Call) {
			return true
		}
	}
	return false
}

// caseOf returns the innermost case clause around call, or nil: an
// acquire in one case of a command switch and a delete in another are
// not one lock's take and release.
func caseOf(pass *analysis.Pass, call *ast.CallExpr) ast.Node {
	for _, n := range callPath(pass, call) {
		switch n.(type) {
		case *ast.CaseClause, *ast.CommClause:
			return n
		case *ast.FuncDecl:
			return nil
		}
	}
	return nil
}

// lockWord reports whether a lock word names the key, a variable or
// field holding it, or a function (or its receiver type) acquiring,
// releasing or renewing it (not one that merely reads or writes it: a
// Go-mutex helper named lockBatch that loads a record is no evidence).
func (l *Lock) lockWord() bool {
	if a := l.word.Load(); l.done && a != 0 {
		return a == answerYes
	}
	w := l.lockWordNow()
	if l.done {
		l.word.Store(answerOf(w))
	}
	return w
}

func (l *Lock) lockWordNow() bool {
	// In a record package, the type that owns a field in the key
	// (Guard.prefix + *) names the store, not the key.
	ownText := func(text string) string {
		if l.recordPkg {
			return fieldOwner.ReplaceAllString(text, "")
		}
		return text
	}
	if l.ByParam || containsAny(ownText(unqualified(l.Key.String())), lockWords) {
		return true
	}
	for _, list := range [][]*Op{l.Acquires, l.Ops} {
		for _, op := range list {
			if containsAny(ownText(op.KeyText()), lockWords) {
				return true
			}
			if op.Kind == Read || op.Kind == Write || op.Kind == Unknown {
				continue // a read in lockCache() says nothing about this key
			}
			if fd := op.In.Decl; fd != nil && (nameSaysLock(fd.Name.Name, op.Via == nil) || named(fd, acquireEvidence) && op.Kind == Acquire || !l.recordPkg && lockReceiver(fd)) {
				return true
			}
			// An imported helper's depth is unknown: taken as the sender.
			if op.Via != nil && nameSaysLock(op.Via.Name(), op.inner == nil || op.inner.Via == nil) {
				return true
			}
		}
	}
	return false
}

// fieldOwner matches the type that qualifies a field in a rendered key
// (Guard. in Guard.prefix + *).
var fieldOwner = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*\.`)

// LockNamed reports whether a lock word names the key, a variable holding
// it, or a function taking, releasing or renewing it.
func (l *Lock) LockNamed() bool { return l.lockWord() }

// RecordNamed reports whether, with no lock word anywhere (LockNamed), an
// acquire of l names a record rather than a lock: its key or the variable
// holding it names something done once (dataWords) or work waiting to
// run (pendingWords), or its function names something done once.
func (l *Lock) RecordNamed() bool {
	if l.lockWord() {
		return false
	}
	return slices.ContainsFunc(l.Acquires, recordNamed)
}

// NamedAsRecord reports whether text (a key) is named as a record of work
// done or seen: processed, done, handled, idempotency, dedup, ...
func NamedAsRecord(text string) bool { return containsAny(unqualified(text), dataWords) }

func recordNamed(a *Op) bool {
	key := unqualified(a.Key.String())
	return containsAny(a.KeyText(), dataWords) || containsAny(key, dataWords) || containsAny(key, pendingWords) ||
		onceWord.MatchString(a.KeyText()) || onceWord.MatchString(key) ||
		a.In.Decl != nil && (named(a.In.Decl, dataWords) || recordReceiver(a.In.Decl))
}

// recordReceiver reports whether fd is a method of a type named as a
// store of idempotency or dedup records (IdempotencyStore.CheckAndMark,
// dedupCache.Claim). Only these words: as substrings of a type's name
// the others match too much (Abandoned has "done").
func recordReceiver(fd *ast.FuncDecl) bool {
	if fd.Recv == nil {
		return false
	}
	return containsAny(types.ExprString(fd.Recv.List[0].Type), recordTypeWords)
}

var recordTypeWords = []string{"idem", "dedup"}

// onceWord finds "once" as a word of a key (exp:once:<uid>, DoOnce,
// run_once): a marker that lets something happen once per TTL. Only the
// key counts: functions named runOnce or pollOnce run one round of a loop,
// and may well lock it; nor does "once" inside a word (concert).
var onceWord = regexp.MustCompile(`(?:^|[^A-Za-z])[Oo]nce|[a-z]Once`)

// unqualified drops the package name from calls in a rendered key
// (release.lockKey(*) -> lockKey(*)), so a package named "release" or
// "clock" does not read as a lock word.
func unqualified(key string) string {
	var b strings.Builder
	start := 0
	for i := 0; i <= len(key); i++ {
		if i < len(key) && (key[i] == '.' || key[i] == '_' || unicode.IsLetter(rune(key[i])) || unicode.IsDigit(rune(key[i]))) {
			continue
		}
		tok := key[start:i]
		if dot := strings.IndexByte(tok, '.'); dot > 0 && i < len(key) && key[i] == '(' && tok[:dot] == strings.ToLower(tok[:dot]) {
			tok = tok[dot+1:]
		}
		b.WriteString(tok)
		if i < len(key) {
			b.WriteByte(key[i])
		}
		start = i + 1
	}
	return b.String()
}

// releaseNamed reports whether fd is named like a release or renewal of a
// lock: Unlock, Release, Refresh, ... or a whole word like Del or Clear
// next to a lock word (LockDel, ClearLock).
func releaseNamed(fd *ast.FuncDecl) bool {
	return named(fd, releaseWords) || hasWord(fd.Name.Name, releaseNameWords) && hasWord(fd.Name.Name, lockWords)
}

// pairedRelease reports whether fd is named like the other half of a
// take/give-back pair (ClearSlot beside AcquireSlot): whole words only,
// and not del/delete, which name plain data operations just as often.
func pairedRelease(fd *ast.FuncDecl) bool { return pairedReleaseName(fd.Name.Name) }

func pairedReleaseName(name string) bool {
	return hasWord(name, []string{"clear", "remove", "reset", "finish", "unset", "leave", "exit", "done"})
}

// hasWord reports whether the identifier name has one of words as a
// whole word (camelCase, snake_case or digits split it), ignoring case.
func hasWord(name string, words []string) bool {
	for _, w := range splitWords(name) {
		for _, x := range words {
			if w == x {
				return true
			}
		}
	}
	return false
}

// splitWords splits an identifier into lower-case words (keyexpr.Words).
func splitWords(name string) []string { return keyexpr.Words(name) }

// containsAny reports whether s contains one of words, ignoring case.
func containsAny(s string, words []string) bool {
	s = strings.ToLower(s)
	for _, w := range words {
		if containsWord(s, w) {
			return true
		}
	}
	return false
}

// falseFriends are longer words a word hides in without meaning it:
// "lease" in releaseInventory, "lock" in blockList or a clock.
var falseFriends = map[string][]string{
	"lease": {"release", "please"},
	"lock":  {"block", "clock"},
}

// containsWord reports whether w occurs in s other than inside one of
// its false friends.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		at := i + j
		hidden := false
		for _, f := range falseFriends[w] {
			k := strings.Index(f, w) // where w sits inside f
			if start := at - k; start >= 0 && strings.HasPrefix(s[start:], f) {
				hidden = true
			}
		}
		if !hidden {
			return true
		}
		i = at + 1
	}
}

// named reports whether fd's name contains one of words, ignoring case.
func named(fd *ast.FuncDecl, words []string) bool {
	return containsAny(fd.Name.Name, words)
}

// siblings reports whether two functions are methods of one type, or
// plain functions in one file.
func (b *builder) siblings(x, y *ast.FuncDecl) bool {
	if (x.Recv == nil) != (y.Recv == nil) {
		return false
	}
	if x.Recv == nil {
		return b.pass.Fset.File(x.Pos()) == b.pass.Fset.File(y.Pos())
	}
	return recvType(b.pass.TypesInfo, x) == recvType(b.pass.TypesInfo, y)
}

// handleOf reports whether y is a method of a type x returns: the
// handle an acquire hands back (V2Lock returns *Lock, whose V2Unlock
// releases).
func (b *builder) handleOf(x, y *ast.FuncDecl) bool {
	if y.Recv == nil {
		return false
	}
	fn, ok := b.pass.TypesInfo.Defs[x.Name].(*types.Func)
	if !ok {
		return false
	}
	recv := recvType(b.pass.TypesInfo, y)
	res := fn.Type().(*types.Signature).Results()
	for i := 0; i < res.Len(); i++ {
		t := res.At(i).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if recv != nil && types.Identical(t, recv) {
			return true
		}
	}
	return false
}

func recvType(info *types.Info, fd *ast.FuncDecl) types.Type {
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return nil
	}
	t := fn.Type().(*types.Signature).Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return t
}

// exportFacts publishes the summaries, marking ops rules already judged
// here because they are part of a lock of this package.
func (b *builder) exportFacts() {
	for _, fd := range b.decls {
		fn, ok := b.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		f := b.facts[fn]
		if f == nil {
			continue
		}
		for _, op := range b.ops[fd] {
			// An acquire alone is not a lifecycle: callers may complete it.
			// Nor are a client wrapper's SetNX(key) and Del(key), joined
			// by the prefix it adds to every key: its callers judge them
			// with their own keys.
			if op.fact >= 0 && op.fact < len(f.Ops) && op.lock != nil && (op.Kind != Acquire || len(op.lock.Ops) > 0) && !op.lock.takenByWrappers() {
				f.Ops[op.fact].InLock = true
			}
		}
		b.pass.ExportObjectFact(fn, f)
	}
	for m, impl := range b.ifaces {
		if f := b.facts[impl]; f != nil && m.Pkg() == b.pass.Pkg {
			b.pass.ExportObjectFact(m, f)
		}
	}
}
