package lockvalue

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/locklint/locklint/analyzers/internal/docs"
	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

//go:embed doc.go
var doc string

// Analyzer reports lock values that cannot identify the lock's holder.
var Analyzer = &analysis.Analyzer{
	Name:             "lockvalue",
	Doc:              docs.Extract(doc, "lockvalue"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/lockvalue/doc.go",
	Requires:         []*analysis.Analyzer{lifecycle.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{new(weakFact), new(valueParamFact)},
}

// weakFact marks a function some of whose results are built only from
// sources that cannot identify a lock holder (constants, timestamps,
// hostname, PID, math/rand), so a lock in another package that stores
// such a result is still recognised. Results[i] is the source set of
// result i, 0 when it may be unique.
type weakFact struct {
	Results []uint16
	Const   string // the constant, when a result is one
	// Acquire is the source set of a weak value the function itself
	// stores under a lock key its caller names (Lock(key) setting "1"),
	// AcquireConst its constant, and AcquireReported whether the
	// function's own package already reported it.
	Acquire         uint16
	AcquireConst    string
	AcquireReported bool
}

func (*weakFact) AFact() {}

func (f *weakFact) String() string {
	var parts []string
	for i, k := range f.Results {
		if k != 0 {
			parts = append(parts, fmt.Sprintf("result %d is %s", i, describe(val{k: kind(k), konst: f.Const})))
		}
	}
	if f.Acquire != 0 {
		parts = append(parts, "acquires with "+describe(val{k: kind(f.Acquire), konst: f.AcquireConst}))
	}
	return "weak value: " + strings.Join(parts, ", ")
}

func run(pass *analysis.Pass) (any, error) {
	lifecycle.SilenceTests(pass)
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	if len(res.Ops) == 0 && (!importsWeakSource(pass.Pkg) || standard(pass)) {
		// No Redis here, and no token helper worth a fact; but a lock
		// value may be handed to another package's locks (never from
		// the standard library).
		if !standard(pass) {
			reportValueArgs(pass, res, nil)
		}
		return nil, nil
	}
	t := newTracer(pass, res)
	valueParams := map[*types.Func]*valueParamFact{}
	helpers := helperAcquires(pass, t, res)
	reported := map[*lifecycle.Op]bool{}
	var viaHelper []*lifecycle.Op
	seen := map[ast.Expr]bool{}
	origins := map[any]*analysis.Diagnostic{} // one report per constructor, helper or variable that makes the value
	var diags []*analysis.Diagnostic
	for _, l := range res.Locks {
		use := lockUse(pass.TypesInfo, l)
		if use == nil || allDiscarded(pass, l) || !l.IsLock(pass) {
			continue // an NX marker never released or renewed, or a cache fill nobody checks: not a lock
		}
		for _, acq := range l.Acquires {
			incr := acq.Cmd != nil && acq.Cmd.Name == "INCR" && acq.Via == nil || acq.Counted
			if acq.Via != nil && !acq.Counted && !isArg(acq.Call, acq.Value) {
				// The helper made the value (and may return it): judge
				// the helper's own acquire, once.
				viaHelper = append(viaHelper, acq)
				continue
			}
			// A value the acquire command makes itself, with no Go
			// expression behind it: a count (INCR) or a literal its Lua
			// script writes. Reported at the call.
			var stores, instead string
			if konst, ok := scriptConst(acq); ok {
				stores = fmt.Sprintf("stores the constant %q, written by its Lua script, as its value", konst)
				instead = "pass a random token from safelock.NewToken() in ARGV and store that"
			} else if incr {
				stores = "is taken with INCR, so its value is a counter"
				instead = "take it with SET NX and a random token from safelock.NewToken()"
			}
			if stores != "" {
				if !seen[acq.Call] {
					seen[acq.Call] = true
					reported[acq] = true
					diags = append(diags, &analysis.Diagnostic{
						Pos: acq.Call.Pos(), End: acq.Call.End(),
						Message: fmt.Sprintf("lock %s %s, which cannot tell one holder from another: %s; %s, and compare it when releasing and renewing",
							acq.KeyText(), stores, consequence(kConst), instead),
						Related: []analysis.RelatedInformation{{Pos: use.Pos(), End: use.Call.End(), Message: use.Command + " of the lock here"}},
					})
				}
				continue
			}
			v := valueOf(pass, acq)
			if v == nil || seen[v] { // Judged does not apply: a helper cannot judge a value its caller passes
				continue
			}
			seen[v] = true
			t.valueParams(acq, v, valueParams)
			c := ctx{fd: acq.In.Decl, key: acq.Key.Exact}
			c.keyFields, c.keyRecv = t.keyMethod(acq.KeyExpr)
			if acq.KeyExpr != nil {
				if sel, ok := ast.Unparen(acq.KeyExpr).(*ast.SelectorExpr); ok {
					if s := pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
						c.keyField, _ = s.Obj().(*types.Var)
					}
				}
			}
			w := t.eval(v, c)
			if !w.k.weak() {
				if f, at := t.sharedToken(acq); f != nil {
					stored := analysis.RelatedInformation{Pos: v.Pos(), End: v.End(), Message: "stored by " + acq.Command + " of lock " + acq.KeyText() + " here"}
					if d := origins[f]; d != nil {
						d.Related = append(d.Related, stored)
					} else {
						d := &analysis.Diagnostic{
							Pos: at.Pos(), End: at.End(),
							Message: fmt.Sprintf("field %s holds one lock token per %s, made here, and %s stores it for whatever key its caller passes: "+
								"every holder that shares the %s shares the token, so one whose lock expired can still release or renew "+
								"the lock another holder took since; "+
								"make a token per acquisition (safelock.NewToken()) and keep it with the lease",
								f.Name(), recvTypeName(acq.In.Decl), acq.In.Decl.Name.Name, recvTypeName(acq.In.Decl)),
							Related: []analysis.RelatedInformation{stored, {Pos: use.Pos(), End: use.Call.End(), Message: use.Command + " of the lock here"}},
						}
						origins[f] = d
						diags = append(diags, d)
					}
					reported[acq] = true
				}
				continue
			}
			// A value made outside the acquiring function (a constructor, a
			// token helper), or a field's default, is reported once where
			// it is made, with every acquire that stores it.
			outside := w.at != nil && (acq.In.Decl == nil || w.at.Pos() < acq.In.Decl.Pos() || w.at.Pos() >= acq.In.Decl.End() || w.unset != "")
			stored := analysis.RelatedInformation{Pos: v.Pos(), End: v.End(), Message: "stored by " + acq.Command + " of lock " + acq.KeyText() + " here"}
			var origin any
			if w.at != nil {
				origin = w.at
			} else if id, ok := ast.Unparen(v).(*ast.Ident); ok && pass.TypesInfo.Uses[id] != nil {
				origin = pass.TypesInfo.Uses[id] // one variable stored by both branches of a retry loop
			}
			if origin != nil {
				if d := origins[origin]; d != nil {
					d.Related = append(d.Related, stored)
					reported[acq] = true
					continue
				}
			}
			d := &analysis.Diagnostic{
				Pos: v.Pos(), End: v.End(),
				Message: fmt.Sprintf("lock %s stores %s as its value, which cannot tell one holder from another: %s; "+
					"store a random token from safelock.NewToken() and compare it when releasing and renewing",
					acq.KeyText(), describe(w), consequence(w.k)),
				Related: []analysis.RelatedInformation{{Pos: use.Pos(), End: use.Call.End(), Message: use.Command + " of the lock here"}},
			}
			if outside {
				d.Pos, d.End = w.at.Pos(), w.at.End()
				d.Related = append([]analysis.RelatedInformation{stored}, d.Related...)
			} else if made := madeFor(pass.TypesInfo, acq, v); made != nil {
				d.Pos, d.End = made.Pos(), made.End()
				d.Related = append([]analysis.RelatedInformation{stored}, d.Related...)
			}
			if origin != nil {
				origins[origin] = d
			}
			d.SuggestedFixes = tokenFix(pass, l, acq, v)
			diags = append(diags, d)
			reported[acq] = true
		}
	}
	for _, d := range diags {
		pass.Report(*d)
	}
	for _, acq := range viaHelper {
		reportHelper(pass, helpers, reported, acq)
	}
	exportFacts(pass, t, helpers, reported)
	exportValueParams(pass, valueParams)
	reportValueArgs(pass, res, t)
	return nil, nil
}

// isArg reports whether e is one of call's arguments.
func isArg(call *ast.CallExpr, e ast.Expr) bool {
	for _, a := range call.Args {
		if a == e {
			return e != nil
		}
	}
	return false
}

// valueOf returns the expression an acquire stores, or nil. For a script
// the value is an ARGV expression, trusted only when the script's SET NX
// stores ARGV[1].
func valueOf(pass *analysis.Pass, acq *lifecycle.Op) ast.Expr {
	if acq.Value == nil {
		return nil
	}
	if cmd := acq.Cmd; cmd != nil && (cmd.Name == "EVAL" || cmd.Name == "EVALSHA") {
		n := 0
		for i, k := range cmd.Keys {
			if k == acq.KeyExpr {
				n = i + 1
			}
		}
		if cmd.Script == nil || n == 0 {
			return nil
		}
		k := cmd.Script.SetValueArg(n) // the ARGV the script stores as the owner
		if k < 1 || len(cmd.ScriptArgs) == 0 {
			return nil
		}
		// go-redis flattens a slice argument: Eval(src, keys, []string{v, ttl}).
		if lit, ok := ast.Unparen(cmd.ScriptArgs[0]).(*ast.CompositeLit); ok && cmd.Client == redismodel.GoRedis && len(cmd.ScriptArgs) == 1 {
			if _, isSlice := typeOf(pass.TypesInfo, lit).Underlying().(*types.Slice); isSlice && k <= len(lit.Elts) {
				if _, kv := lit.Elts[k-1].(*ast.KeyValueExpr); !kv {
					return lit.Elts[k-1]
				}
			}
			return nil
		}
		if k > len(cmd.ScriptArgs) || cmd.ScriptArgs[k-1] != acq.Value {
			return nil
		}
	}
	return acq.Value
}

// lockUse returns the op that makes an NX key a lock: a release, a
// renewal outside the acquiring code, or a value-checked write. Nil for
// deduplication and idempotency markers, which are never released.
func lockUse(info *types.Info, l *lifecycle.Lock) *lifecycle.Op {
	for _, op := range l.Ops {
		switch {
		case op.Kind == lifecycle.Delete:
			return op
		case op.Kind == lifecycle.Write && op.Checked:
			return op
		case op.Kind == lifecycle.Expire && !besideAcquire(l, op):
			return op
		}
	}
	if l.LockNamed() && !l.Key.HasParams() {
		// A lock type keeping its token in a field beside the key
		// (r.token), released where we cannot read (a script behind the
		// project's own Eval): the kept token is for an owner check. A
		// key the caller passes is judged there, with its release.
		for _, acq := range l.Acquires {
			if keptToken(info, acq) {
				return acq
			}
		}
	}
	return nil
}

// keptToken reports whether acq stores a field of its method's receiver
// (r.token), the receiver that also names the key.
func keptToken(info *types.Info, acq *lifecycle.Op) bool {
	fd := acq.In.Decl
	if fd == nil || fd.Recv == nil || len(fd.Recv.List[0].Names) == 0 || acq.Value == nil {
		return false
	}
	recv := info.Defs[fd.Recv.List[0].Names[0]]
	sel, ok := ast.Unparen(acq.Value).(*ast.SelectorExpr)
	if !ok || info.Selections[sel] == nil || info.Selections[sel].Kind() != types.FieldVal {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && recv != nil && info.Uses[id] == recv
}

// sharedToken returns the receiver field an acquire stores, and where the
// field gets its value, when that one value serves every key: an
// exported method stores a field of its receiver (c.value) for a key
// built from its own parameters (TryLock(ctx, key)), and the field is
// only ever set outside the receiver type's methods (a constructor, an
// option) and made there at least once, so every acquisition through
// that value stores the same token. A value made afresh for each
// acquisition, only ever passed in, a key fixed per value (a Mutex made
// for one key), or a field set elsewhere (exported, its address taken)
// is left alone.
func (t *tracer) sharedToken(acq *lifecycle.Op) (*types.Var, ast.Expr) {
	fd := acq.In.Decl
	if fd == nil || fd.Recv == nil || !fd.Name.IsExported() || acq.Via != nil && !isArg(acq.Call, acq.Value) || !acq.Key.HasParams() || !keptToken(t.info, acq) {
		return nil, nil
	}
	sel := ast.Unparen(acq.Value).(*ast.SelectorExpr) // keptToken checked the shape
	f, _ := t.info.Selections[sel].Obj().(*types.Var)
	if f == nil || f.Exported() || f.Pkg() != t.pass.Pkg || t.tainted[f] || len(t.vars[f]) == 0 {
		return nil, nil
	}
	recv := t.info.TypeOf(fd.Recv.List[0].Type)
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	for _, a := range t.vars[f] {
		if a.fd == nil {
			return nil, nil
		}
		if a.fd.Recv != nil {
			if r := t.info.TypeOf(a.fd.Recv.List[0].Type); r != nil && (types.Identical(r, recv) || types.Identical(r, types.NewPointer(recv))) {
				return nil, nil // set by a method: perhaps per acquisition
			}
		}
	}
	// Reported where the client makes the value (the constructor's uuid),
	// not where an option copies a caller's value in. A token only ever
	// passed in may be made per acquisition, with a client per
	// acquisition: silent.
	for _, a := range t.vars[f] {
		if id, ok := ast.Unparen(a.rhs).(*ast.Ident); ok {
			if v, ok := t.info.Uses[id].(*types.Var); ok && isParam(a.fd, v) {
				continue
			}
		}
		return f, a.rhs
	}
	return nil, nil
}

// recvTypeName names the receiver type of method fd.
func recvTypeName(fd *ast.FuncDecl) string {
	x := fd.Recv.List[0].Type
	if st, ok := x.(*ast.StarExpr); ok {
		x = st.X
	}
	return types.ExprString(x)
}

// allDiscarded reports whether no acquire of the lock has its result
// read: nothing decides on the NX outcome, so it is no lock.
func allDiscarded(pass *analysis.Pass, l *lifecycle.Lock) bool {
	for _, acq := range l.Acquires {
		if !lifecycle.Discarded(pass, acq) {
			return false
		}
	}
	return true
}

// besideAcquire reports whether op runs in the same function body as an
// acquire of the lock: SETNX then EXPIRE sets up a marker's TTL, it does
// not renew a lock.
func besideAcquire(l *lifecycle.Lock, op *lifecycle.Op) bool {
	for _, acq := range l.Acquires {
		if acq.In.Decl == op.In.Decl && acq.In.Lit == op.In.Lit && acq.In.InGo == op.In.InGo && !otherBranch(acq.In.Decl, acq.Call, op.Call) {
			return true
		}
	}
	return false
}

// madeFor returns, for an acquire through a helper that is passed the
// value (AcquireLock(ctx, key, value, ttl)), the expression the caller
// gave that variable when it was declared once in the calling function
// (value := fmt.Sprint(time.Now().UnixNano())): the acquiring function is
// the helper, so the value is made outside it, on that line.
func madeFor(info *types.Info, acq *lifecycle.Op, v ast.Expr) ast.Expr {
	id, ok := ast.Unparen(v).(*ast.Ident)
	if acq.Via == nil || acq.In.Decl == nil || !ok {
		return nil
	}
	obj := info.Uses[id]
	if obj == nil {
		return nil
	}
	var made ast.Expr
	assigned := 0
	ast.Inspect(acq.In.Decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if lid, ok := l.(*ast.Ident); ok && (info.Defs[lid] == obj || info.Uses[lid] == obj) {
				assigned++
				if as.Tok == token.DEFINE && len(as.Lhs) == len(as.Rhs) {
					made = as.Rhs[i]
				}
			}
		}
		return true
	})
	if assigned != 1 {
		return nil
	}
	return made
}

// otherBranch reports whether a and b sit in the two branches of one if
// statement of fd (if renewal { EXPIRE } else { SET NX }): the EXPIRE
// renews a lock taken by another call, it does not follow this acquire.
func otherBranch(fd *ast.FuncDecl, a, b ast.Node) bool {
	if fd == nil || fd.Body == nil {
		return false
	}
	in := func(n, root ast.Node) bool { return root != nil && root.Pos() <= n.Pos() && n.End() <= root.End() }
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		if ifs.Else != nil && (in(a, ifs.Body) && in(b, ifs.Else) || in(b, ifs.Body) && in(a, ifs.Else)) {
			found = true
		}
		return !found
	})
	return found
}

// describe names the weak sources of a value.
func describe(w val) string {
	if w.unset != "" {
		d := w
		d.unset = ""
		return describe(d) + " (the default when " + w.unset + ")"
	}
	var parts []string
	if w.k&kMathRand != 0 {
		parts = append(parts, "math/rand output")
	}
	if w.k&kTime != 0 {
		parts = append(parts, "a timestamp")
	}
	if w.k&kHost != 0 {
		parts = append(parts, "the hostname")
	}
	if w.k&kAddr != 0 {
		parts = append(parts, "a network address of the host")
	}
	if w.k&kPID != 0 {
		parts = append(parts, "the process ID")
	}
	if w.k&kGoroutine != 0 {
		parts = append(parts, "a goroutine id")
	}
	if w.k&kKey != 0 {
		parts = append(parts, "the lock key itself")
	}
	if w.k&kKeyPart != 0 {
		parts = append(parts, "part of the lock key")
	}
	if len(parts) == 0 {
		if w.konst != "" {
			return "the constant " + w.konst
		}
		return "a constant"
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// consequence says what goes wrong with such a value.
func consequence(k kind) string {
	switch {
	case k&kMathRand != 0:
		return "math/rand is predictable, and processes seeded alike draw the same values, so two holders can store the same value " +
			"and an owner check passes for the wrong one"
	case k&kTime != 0:
		return "holders that acquire within the same tick store the same value, so a holder whose lock expired " +
			"still passes the owner check and releases or extends the new holder's lock"
	case k&kGoroutine != 0:
		return "goroutine ids restart from 1 in every process and process IDs repeat across hosts and containers, " +
			"so two holders can store the same value and an owner check passes for the wrong one"
	case k&(kHost|kAddr|kPID) != 0:
		return "every goroutine of the process, and a restarted process on the same host, stores the same value, " +
			"so one of them can release or extend a lock another one holds"
	}
	return "every holder stores the same value, so a holder whose lock expired still passes the owner check " +
		"and releases or extends the next holder's lock"
}

// tokenFix replaces a literal value with safelock.NewToken() when that
// change is self-contained: nothing reads or compares the lock's value
// (no GET, no compare-and-delete or compare-and-expire, no IFEQ, nothing
// unreadable), so the old literal is needed nowhere else, and the
// parameter takes a string.
func tokenFix(pass *analysis.Pass, l *lifecycle.Lock, acq *lifecycle.Op, v ast.Expr) []analysis.SuggestedFix {
	if !acq.Direct() || !isLiteral(pass, v) {
		return nil
	}
	for _, op := range l.Ops {
		if op.Kind == lifecycle.Read || op.Kind == lifecycle.Unknown || op.Checked || op.ReadBefore != nil ||
			op.Cmd != nil && op.Cmd.Script != nil {
			return nil
		}
	}
	file := fixes.File(pass, v.Pos())
	if file == nil || !takesString(pass, file, v) {
		return nil
	}
	local, edits, ok := fixes.Import(pass, file, v.Pos(), "github.com/locklint/locklint/safelock", "safelock")
	if !ok {
		return nil
	}
	edits = append(edits, analysis.TextEdit{Pos: v.Pos(), End: v.End(), NewText: []byte(local + ".NewToken()")})
	return []analysis.SuggestedFix{{Message: "Store a random token from safelock.NewToken()", TextEdits: edits}}
}

// isLiteral reports whether e is a literal written at the acquire: "1",
// 1, true.
func isLiteral(pass *analysis.Pass, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		c, ok := pass.TypesInfo.Uses[e].(*types.Const)
		return ok && c.Parent() == types.Universe
	}
	return false
}

// takesString reports whether the parameter v is passed to accepts a
// string (interface{} for go-redis and redigo, string for rueidis).
func takesString(pass *analysis.Pass, file *ast.File, v ast.Expr) bool {
	path, _ := astutil.PathEnclosingInterval(file, v.Pos(), v.End())
	for i, n := range path {
		if n != ast.Node(v) {
			continue
		}
		if i+1 >= len(path) {
			return false
		}
		call, ok := path[i+1].(*ast.CallExpr)
		if !ok {
			return false
		}
		sig, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
		if !ok {
			return false
		}
		for j, a := range call.Args {
			if a != v {
				continue
			}
			var pt types.Type
			switch {
			case sig.Variadic() && j >= sig.Params().Len()-1:
				s, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
				if !ok {
					return false
				}
				pt = s.Elem()
			case j < sig.Params().Len():
				pt = sig.Params().At(j).Type()
			default:
				return false
			}
			return types.AssignableTo(types.Typ[types.String], pt)
		}
		return false
	}
	return false
}

// exportFacts records which of the package's functions return weak
// values, for callers in other packages.
func exportFacts(pass *analysis.Pass, t *tracer, helpers map[*types.Func]*helper, reported map[*lifecycle.Op]bool) {
	for _, fd := range t.decls {
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || !fn.Exported() {
			continue // other packages can call only exported functions
		}
		results := fn.Type().(*types.Signature).Results()
		f := &weakFact{Results: make([]uint16, results.Len())}
		any := false
		if h := helpers[fn]; h != nil {
			f.Acquire, f.AcquireConst, f.AcquireReported = uint16(h.v.k), h.v.konst, reported[h.op]
			any = true
		}
		for i := 0; i < results.Len(); i++ {
			if !valueType(results.At(i).Type()) {
				continue
			}
			if w := t.returns(fd, i); w.k.weak() {
				f.Results[i] = uint16(w.k)
				if f.Const == "" {
					f.Const = w.konst
				}
				any = true
			}
		}
		if any {
			pass.ExportObjectFact(fn, f)
		}
	}
}

// valueType reports whether values of t are worth a fact: strings,
// integers and byte slices (a helper returning a constant bool is far
// more often a predicate than a lock value).
func valueType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsString|types.IsInteger) != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && (b.Kind() == types.Byte || b.Kind() == types.Rune)
	}
	return false
}

// standard reports whether the package is part of the Go distribution,
// whose packages make no lock tokens.
func standard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return strings.HasPrefix(name, filepath.Join(build.Default.GOROOT, "src")+string(filepath.Separator))
}

// importsWeakSource reports whether the package can make a weak token
// another package may store: from math/rand, from the process ID,
// hostname or goroutine id (os, runtime), or from the clock (time).
func importsWeakSource(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if p := imp.Path(); isMathRand(p) || p == "os" || p == "runtime" || p == "time" || p == "net" || p == "net/netip" {
			return true
		}
	}
	return false
}

// scriptConst returns the literal a script acquire's own SET stores as the
// lock's value (SETEX KEYS[1] 60 '1'), when it stores one.
func scriptConst(acq *lifecycle.Op) (string, bool) {
	cmd := acq.Cmd
	if cmd == nil || acq.Via != nil || cmd.Script == nil || cmd.Name != "EVAL" && cmd.Name != "EVALSHA" {
		return "", false
	}
	for i, k := range cmd.Keys {
		if k == acq.KeyExpr {
			return cmd.Script.CreateValueConst(i + 1)
		}
	}
	return "", false
}
