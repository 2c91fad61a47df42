package lockvalue

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/soleimpl"
)

// kind is the set of sources a value is built from.
type kind uint16

const (
	kConst     kind = 1 << iota // a constant
	kKey                        // the lock key itself
	kTime                       // a timestamp
	kHost                       // os.Hostname
	kPID                        // os.Getpid, os.Getppid
	kMathRand                   // math/rand, math/rand/v2
	kKeyPart                    // a part of the lock key: the id in "lock:"+id
	kNeutral                    // durations, lengths, zeroed buffers: no uniqueness, no harm
	kUnknown                    // anything else: crypto/rand, UUIDs, caller input, ...
	kGoroutine                  // a goroutine id parsed from runtime.Stack
	kNano                       // with kTime: the timestamp counts nanoseconds (t.UnixNano())
	kAddr                       // a network address (net.IP.String()): the host's, like its name
)

const weakKinds = kConst | kKey | kKeyPart | kTime | kHost | kAddr | kPID | kMathRand | kGoroutine

// weak reports whether every part of the value is known and none of them
// can tell one holder from another. A nanosecond timestamp joined with the
// host or the process (host-pid-UnixNano, a per-process leader id) is not
// weak: two holders would need the same host or process and the same
// nanosecond.
func (k kind) weak() bool {
	if k&kNano != 0 && k&kTime != 0 && k&(kHost|kAddr|kPID) != 0 {
		return false
	}
	return k&kUnknown == 0 && k&weakKinds != 0
}

// val is what the tracer found about one expression.
type val struct {
	k     kind
	konst string   // source of the first constant met, for messages
	at    ast.Node // where the value was made, when outside the acquiring function
	unset string   // when the default applies: "cfg.InstanceID is not set", "flag -node-id is not set"
}

var unknown = val{k: kUnknown}

func (v val) or(w val) val {
	v.k |= w.k
	if v.konst == "" {
		v.konst = w.konst
	}
	if v.at == nil {
		v.at = w.at
	}
	if v.unset == "" {
		v.unset = w.unset
	}
	return v
}

// ctx is the function an expression is read in, and the rendering of the
// lock key there (to recognise a value that is the key itself).
type ctx struct {
	fd       *ast.FuncDecl
	key      string
	keyField *types.Var // the lock key is this struct field
	// keyFields are fields of the receiver the key is built from when it
	// comes from a method (p.key() returning "lock:" + p.Name), and the
	// receiver expression at the acquire.
	keyFields map[*types.Var]bool
	keyRecv   string
	depth     int
	// bound holds, while a helper's return is traced for one call
	// (GetUnixMillisByTime(time.Now())), the call's arguments for the
	// helper's parameters, evaluated in the caller's ctx (outer).
	bound map[*types.Var]ast.Expr
	outer *ctx
}

// assign is one value a variable or field is given.
type assign struct {
	rhs ast.Expr
	idx int // result index when rhs is a multi-value call, else -1
	fd  *ast.FuncDecl
	lit *ast.CompositeLit // the struct literal that sets a field, if any
}

// tracer follows lock values to their sources within a package: locals,
// struct fields set anywhere in the package (constructors in other
// files), package variables and helper returns; helpers of other packages
// through facts.
type tracer struct {
	pass   *analysis.Pass
	info   *types.Info
	res    *lifecycle.Result
	decls  []*ast.FuncDecl
	declOf map[*types.Func]*ast.FuncDecl
	locals map[*ast.FuncDecl]map[*types.Var][]assign
	// vars holds assignments to fields and package variables; tainted
	// ones (address taken, set through reflection-like paths) are unknown.
	vars    map[*types.Var][]assign
	tainted map[*types.Var]bool
	rets    map[retKey]*val
	// inLocal marks locals being traced: buf = buf[:n] reads the value
	// being built, which adds nothing new.
	inLocal map[*types.Var]bool
	calls   map[*types.Func][]siteCall // made by callsOf
}

type retKey struct {
	fd  *ast.FuncDecl
	idx int
}

func newTracer(pass *analysis.Pass, res *lifecycle.Result) *tracer {
	t := &tracer{
		pass: pass, info: pass.TypesInfo, res: res,
		declOf:  map[*types.Func]*ast.FuncDecl{},
		locals:  map[*ast.FuncDecl]map[*types.Var][]assign{},
		vars:    map[*types.Var][]assign{},
		tainted: map[*types.Var]bool{},
		rets:    map[retKey]*val{},
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if fn, ok := t.info.Defs[d.Name].(*types.Func); ok && d.Body != nil {
					t.declOf[fn] = d
					t.decls = append(t.decls, d)
				}
				t.scanStores(d, d)
			case *ast.GenDecl:
				t.scanStores(d, nil)
			}
		}
	}
	return t
}

// scanStores records assignments to struct fields and package variables
// under n (in function fd, or at package level when fd is nil).
func (t *tracer) scanStores(n ast.Node, fd *ast.FuncDecl) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, name := range n.Names {
				v, _ := t.info.Defs[name].(*types.Var)
				if v == nil || !t.global(v) {
					continue
				}
				switch {
				case len(n.Values) == len(n.Names):
					t.vars[v] = append(t.vars[v], assign{rhs: n.Values[i], idx: -1, fd: fd})
				case len(n.Values) == 1:
					t.vars[v] = append(t.vars[v], assign{rhs: n.Values[0], idx: i, fd: fd})
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				v := t.stored(lhs)
				if v == nil {
					continue
				}
				switch {
				case len(n.Lhs) == len(n.Rhs):
					t.vars[v] = append(t.vars[v], assign{rhs: n.Rhs[i], idx: -1, fd: fd})
				case len(n.Rhs) == 1:
					t.vars[v] = append(t.vars[v], assign{rhs: n.Rhs[0], idx: i, fd: fd})
				default:
					t.tainted[v] = true
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := t.stored(n.X); v != nil {
					t.tainted[v] = true
				}
			}
		case *ast.CompositeLit:
			st, ok := typeOf(t.info, n).Underlying().(*types.Struct)
			if !ok {
				return true
			}
			for i, elt := range n.Elts {
				var f *types.Var
				var x ast.Expr
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						f, _ = t.info.Uses[id].(*types.Var)
					}
					x = kv.Value
				} else if i < st.NumFields() {
					f, x = st.Field(i), elt
				}
				if f != nil {
					t.vars[f] = append(t.vars[f], assign{rhs: x, idx: -1, fd: fd, lit: n})
				}
			}
		}
		return true
	})
}

func typeOf(info *types.Info, e ast.Expr) types.Type {
	if t := info.TypeOf(e); t != nil {
		return t
	}
	return types.Typ[types.Invalid]
}

// global reports whether v is a package-level variable of this package.
func (t *tracer) global(v *types.Var) bool {
	return v.Pkg() == t.pass.Pkg && v.Parent() == t.pass.Pkg.Scope()
}

// stored returns the field or package variable an assignment target
// names, or nil.
func (t *tracer) stored(e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if sel := t.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			v, _ := sel.Obj().(*types.Var)
			return v
		}
		if v, ok := t.info.Uses[e.Sel].(*types.Var); ok && t.global(v) {
			return v
		}
	case *ast.Ident:
		if v, ok := t.info.Uses[e].(*types.Var); ok && t.global(v) {
			return v
		}
	}
	return nil
}

// localsOf indexes the assignments to local variables of fd, including
// writes into byte slices (b[i] = x, rand.Read(b), copy(b, x)).
func (t *tracer) localsOf(fd *ast.FuncDecl) map[*types.Var][]assign {
	if m, ok := t.locals[fd]; ok {
		return m
	}
	m := map[*types.Var][]assign{}
	t.locals[fd] = m
	if fd == nil || fd.Body == nil {
		return m
	}
	local := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		obj := t.info.Defs[id]
		if obj == nil {
			obj = t.info.Uses[id]
		}
		v, _ := obj.(*types.Var)
		if v == nil || t.global(v) || v.IsField() {
			return nil
		}
		return v
	}
	taint := func(v *types.Var) {
		if v != nil {
			m[v] = append(m[v], assign{idx: -2})
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
					if v := local(ix.X); v != nil && len(n.Lhs) == len(n.Rhs) {
						m[v] = append(m[v], assign{rhs: n.Rhs[i], idx: -1, fd: fd})
					}
					continue
				}
				v := local(lhs)
				if v == nil {
					continue
				}
				switch {
				case len(n.Lhs) == len(n.Rhs):
					m[v] = append(m[v], assign{rhs: n.Rhs[i], idx: -1, fd: fd})
				case len(n.Rhs) == 1:
					m[v] = append(m[v], assign{rhs: n.Rhs[0], idx: i, fd: fd})
				default:
					taint(v)
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				v := local(name)
				switch {
				case v == nil:
				case len(n.Values) == len(n.Names):
					m[v] = append(m[v], assign{rhs: n.Values[i], idx: -1, fd: fd})
				case len(n.Values) == 1:
					m[v] = append(m[v], assign{rhs: n.Values[0], idx: i, fd: fd})
				}
			}
		case *ast.RangeStmt:
			taint(local(n.Key))
			taint(local(n.Value))
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				taint(local(n.X))
			}
		case *ast.CallExpr:
			// A slice passed to a call may be written by it, whole or
			// in part (hex.Encode(buf[0:8], src)).
			for _, a := range n.Args {
				if se, ok := ast.Unparen(a).(*ast.SliceExpr); ok {
					a = se.X
				}
				v := local(a)
				if v == nil {
					continue
				}
				if _, ok := v.Type().Underlying().(*types.Slice); !ok {
					continue
				}
				switch t.fills(n) {
				case kMathRand:
					m[v] = append(m[v], assign{idx: -3})
				case kGoroutine:
					m[v] = append(m[v], assign{idx: -4})
				case kNeutral:
				case kConst:
					if len(n.Args) == 2 && a == n.Args[0] { // copy(b, src)
						m[v] = append(m[v], assign{rhs: n.Args[1], idx: -1, fd: fd})
					}
				default:
					taint(v)
				}
			}
		}
		return true
	})
	return m
}

// fills says what a call does to a slice passed to it: kMathRand for a
// math/rand Read, kNeutral for calls that only read it, kConst for copy
// (the source is traced), kUnknown for anything else (crypto/rand.Read
// included: an unknown is never reported).
func (t *tracer) fills(call *ast.CallExpr) kind {
	switch fn := typeutil.Callee(t.info, call).(type) {
	case *types.Builtin:
		switch fn.Name() {
		case "copy":
			return kConst
		case "len", "cap", "append":
			return kNeutral
		}
	case *types.Func:
		if fn.Pkg() == nil {
			return kUnknown
		}
		switch path := fn.Pkg().Path(); {
		case redismodel.IsClientPackage(path):
			return kNeutral // the acquire itself, or another command sending it
		case isMathRand(path):
			return kMathRand
		case path == "runtime" && fn.Name() == "Stack":
			return kGoroutine // "goroutine 12 [running]": an id local to the process
		case transparent(fn):
			return kNeutral
		case path == "fmt":
			return kNeutral
		}
	default:
		if tv, ok := t.info.Types[call.Fun]; ok && tv.IsType() {
			return kNeutral // string(b)
		}
	}
	return kUnknown
}

func isMathRand(path string) bool { return path == "math/rand" || path == "math/rand/v2" }

// fullRange are the math/rand functions and methods that return 31 to 64
// random bits (not a small range: Intn(1000) is weak whatever the seed).
var fullRange = map[string]bool{"Int": true, "Int31": true, "Int32": true, "Int63": true, "Int64": true, "Uint32": true, "Uint64": true}

// seededOnce reports whether the *rand.Rand a method is called on is a
// package variable made once from a seed that is not a constant
// (var rd = rand.New(rand.NewSource(time.Now().UnixNano()))). A Rand made
// in a function is re-seeded at each call, and a constant seed draws the
// same values in every process: both are weak.
func (t *tracer) seededOnce(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := t.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return false
	}
	// The value it is made from: at its declaration, or assigned once in
	// a function (var rng *rand.Rand; func init() { rng = rand.New(...) }).
	var made []ast.Expr
	for _, f := range t.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if t.info.Defs[name] == v && len(n.Values) == len(n.Names) {
						made = append(made, n.Values[i])
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && t.info.Uses[id] == v {
						if len(n.Rhs) != len(n.Lhs) {
							made = append(made, nil)
						} else {
							made = append(made, n.Rhs[i])
						}
					}
				}
			}
			return true
		})
	}
	return len(made) == 1 && made[0] != nil && !constantSeed(t.info, made[0])
}

// randParam reports whether the *rand.Rand a method is called on is a
// parameter of fd (utils.RandomString(rng, n)): its seeding is the
// caller's, and a full-range draw from it is not weak in itself.
func randParam(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fd == nil {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v := info.Uses[id]
	for _, field := range fd.Type.Params.List {
		for _, name := range field.Names {
			if info.Defs[name] == v {
				return true
			}
		}
	}
	return false
}

// constantSeed reports whether a rand.New(...) expression is seeded only
// with constants.
func constantSeed(info *types.Info, e ast.Expr) bool {
	seeded, constant := false, true
	ast.Inspect(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || fn.Pkg() == nil || !isMathRand(fn.Pkg().Path()) || !strings.HasPrefix(fn.Name(), "New") || fn.Name() == "New" {
			return true
		}
		seeded = true
		for _, a := range call.Args {
			if info.Types[a].Value == nil {
				constant = false
			}
		}
		return true
	})
	return !seeded || constant
}

// badlySeeded reports whether the global math/rand source is made
// predictable where fd draws from it: seeded with a constant anywhere in
// the package, or re-seeded inside fd (from the clock at each call, so two
// processes calling in the same tick draw the same value).
func (t *tracer) badlySeeded(fd *ast.FuncDecl) bool {
	bad := false
	for _, d := range t.decls {
		ast.Inspect(d, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || bad {
				return !bad
			}
			fn, ok := typeutil.Callee(t.info, call).(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "math/rand" || fn.Name() != "Seed" || len(call.Args) != 1 {
				return true
			}
			if sig := fn.Type().(*types.Signature); sig.Recv() != nil {
				return true
			}
			if d == fd || t.info.Types[call.Args[0]].Value != nil {
				bad = true
			}
			return true
		})
	}
	return bad
}

// transparent reports whether fn returns its arguments in another form
// (formatting, encoding, trimming), so its result is made of them.
func transparent(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "fmt":
		return fn.Name() == "Sprint" || fn.Name() == "Sprintf" || fn.Name() == "Sprintln"
	case "strconv":
		return strings.HasPrefix(fn.Name(), "Format") || strings.HasPrefix(fn.Name(), "Append") ||
			fn.Name() == "Itoa" || fn.Name() == "Quote" || fn.Name() == "Atoi" || fn.Name() == "ParseInt" || fn.Name() == "ParseUint"
	case "strings", "bytes":
		switch fn.Name() {
		case "Join", "Repeat", "ToUpper", "ToLower", "TrimSpace", "Trim", "TrimLeft", "TrimRight",
			"TrimPrefix", "TrimSuffix", "ReplaceAll", "Replace", "Clone",
			"Split", "SplitN", "SplitAfter", "Fields", "Cut": // parts of the text: its sources
			return true
		}
	case "encoding/hex":
		return fn.Name() == "EncodeToString"
	case "encoding/json":
		// json.Marshal(true) in a package variable: the same bytes for
		// every holder, as true is.
		return fn.Name() == "Marshal"
	case "encoding/base64", "encoding/base32":
		return fn.Name() == "EncodeToString"
	}
	return false
}

// eval traces e, read in c.
func (t *tracer) eval(e ast.Expr, c ctx) val {
	if e == nil || c.depth > 16 {
		return unknown
	}
	c.depth++
	e = ast.Unparen(e)
	if sel, ok := e.(*ast.SelectorExpr); ok && len(c.keyFields) > 0 {
		if s := t.info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && c.keyFields[s.Obj().(*types.Var)] && types.ExprString(sel.X) == c.keyRecv {
			return val{k: kKeyPart}
		}
	}
	if c.key != "" {
		switch t.keyRelation(e, c) {
		case kKey:
			return val{k: kKey}
		case kKeyPart:
			return val{k: kKeyPart}
		}
	}
	tv, ok := t.info.Types[e]
	if !ok {
		return unknown
	}
	if tv.Value != nil {
		return val{k: kConst, konst: tv.Value.ExactString()}
	}
	if isDuration(tv.Type) {
		return val{k: kNeutral}
	}
	switch e := e.(type) {
	case *ast.Ident:
		return t.ident(e, c)
	case *ast.SelectorExpr:
		if sel := t.info.Selections[e]; sel != nil {
			if v, ok := sel.Obj().(*types.Var); ok && sel.Kind() == types.FieldVal {
				w := t.field(v, c)
				if w.k&kUnknown != 0 {
					if d, ok := t.defaulted(e, v, c); ok {
						return d
					}
				}
				return w
			}
			return unknown
		}
		return t.ident(e.Sel, c)
	case *ast.CallExpr:
		return t.call(e, -1, c)
	case *ast.BinaryExpr:
		x, y := t.eval(e.X, c), t.eval(e.Y, c)
		if isNumber(tv.Type) {
			// now.Unix() + timeout: an offset from a timestamp is a
			// timestamp, whatever the offset is.
			if x.k&kTime != 0 && y.k&kUnknown != 0 {
				y = val{k: kNeutral}
			}
			if y.k&kTime != 0 && x.k&kUnknown != 0 {
				x = val{k: kNeutral}
			}
		}
		return t.composed(x.or(y), e.X, e.Y)
	case *ast.IndexExpr:
		return t.eval(e.X, c).or(t.eval(e.Index, c))
	case *ast.SliceExpr:
		return t.eval(e.X, c) // a part of the value: its sources, whatever the bounds
	case *ast.StarExpr:
		if d, ok := t.flagDefault(e, c); ok {
			return d
		}
		return unknown
	case *ast.UnaryExpr:
		if e.Op == token.AND || e.Op == token.ARROW {
			return unknown
		}
		return t.eval(e.X, c)
	}
	return unknown
}

// keyRelation reports whether e is the lock key itself (kKey: the same
// variable, field or expression of variables as the key) or a variable
// part of it (kKeyPart: id in "lock:"+id), or neither (0). Both are the
// same for every holder of that lock.
func (t *tracer) keyRelation(e ast.Expr, c ctx) kind {
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.BinaryExpr, *ast.CallExpr:
	default:
		return 0
	}
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		return 0 // a constant: reported as one
	}
	k := t.res.Env(c.fd).Of(e)
	if !k.Known() || !deterministic(k.Exact) {
		return 0
	}
	if k.Exact == c.key {
		return kKey
	}
	// A whole argument of the key's rendering: "(x," ",x," ",x)".
	for _, pre := range []string{"(", ","} {
		for _, post := range []string{")", ","} {
			if strings.Contains(c.key, pre+k.Exact+post) {
				return kKeyPart
			}
		}
	}
	return 0
}

// deterministic reports whether a rendering names the same value every
// time it is evaluated: no calls other than formatting, nothing unknown.
func deterministic(exact string) bool {
	n := strings.Count(exact, "call(")
	for _, f := range []string{"call(fmt.Sprintf,", "call(fmt.Sprint,", "call(strings.Join,", "call(path.Join,"} {
		n -= strings.Count(exact, f)
	}
	return n == 0 && !strings.Contains(exact, "$x")
}

func isNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

func isDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

func (t *tracer) ident(id *ast.Ident, c ctx) val {
	obj := t.info.Uses[id]
	if obj == nil {
		obj = t.info.Defs[id]
	}
	v, ok := obj.(*types.Var)
	if !ok {
		return unknown
	}
	if t.global(v) {
		return t.stores(v, c)
	}
	if arg, ok := c.bound[v]; ok {
		return t.eval(arg, *c.outer)
	}
	if v.Pkg() != t.pass.Pkg || v.Parent() == nil || v.Parent() == types.Universe || isParam(c.fd, v) {
		return unknown // the caller's value
	}
	as := t.localsOf(c.fd)[v]
	if len(as) == 0 {
		return unknown // a parameter (the caller's value) or never assigned
	}
	if t.inLocal[v] {
		return val{}
	}
	if t.inLocal == nil {
		t.inLocal = map[*types.Var]bool{}
	}
	t.inLocal[v] = true
	defer delete(t.inLocal, v)
	out := val{}
	overridden := false
	for _, a := range as {
		if len(as) > 1 && t.optionalArg(a.rhs, c.fd) {
			// value = args[0] when the caller passes the optional value:
			// the other assignments are what every other caller stores.
			overridden = true
			continue
		}
		switch a.idx {
		case -2:
			return unknown
		case -3:
			out = out.or(val{k: kMathRand})
		case -4:
			out = out.or(val{k: kGoroutine})
		case -1:
			out = out.or(t.eval(a.rhs, c))
		default:
			call, ok := ast.Unparen(a.rhs).(*ast.CallExpr)
			if !ok {
				return unknown
			}
			out = out.or(t.call(call, a.idx, c))
		}
		if out.k&kUnknown != 0 {
			return unknown
		}
	}
	if overridden && out.k == kConst && out.konst != "" {
		out.konst += " (unless the caller passes a value)"
	}
	return out
}

// isParam reports whether v is a parameter, result or receiver of fd.
func isParam(fd *ast.FuncDecl, v *types.Var) bool {
	if fd == nil {
		return false
	}
	in := func(n ast.Node) bool { return n != nil && n.Pos() <= v.Pos() && v.Pos() < n.End() }
	// Named results are locals: traced through what the body assigns them.
	return in(fd.Type.Params) || fd.Recv != nil && in(fd.Recv)
}

// field traces an unexported struct field (or a package variable) through
// every assignment in the package: constructors in other files included.
// Exported fields may be set by other packages: unknown.
func (t *tracer) field(v *types.Var, c ctx) val {
	if v.Pkg() != t.pass.Pkg || v.Exported() {
		return unknown
	}
	return t.stores(v, c)
}

func (t *tracer) stores(v *types.Var, c ctx) val {
	as := t.vars[v]
	if t.tainted[v] {
		return unknown
	}
	if len(as) == 0 {
		return neverSet(v)
	}
	out := val{}
	for _, a := range as {
		inner := ctx{fd: a.fd, depth: c.depth}
		if a.fd == c.fd {
			inner.key, inner.keyField = c.key, c.keyField
		}
		if a.lit != nil && c.keyField != nil {
			// &Lock{key: name, value: name}: the value is the key.
			if kx := litField(t.info, a.lit, c.keyField); kx != nil {
				inner.key = t.res.Env(a.fd).Of(kx).Exact
			}
		}
		var w val
		if a.idx >= 0 {
			call, ok := ast.Unparen(a.rhs).(*ast.CallExpr)
			if !ok {
				return unknown
			}
			w = t.call(call, a.idx, inner)
		} else {
			w = t.eval(a.rhs, inner)
			if p := t.param(a.fd, a.rhs); p != nil && w.k&kUnknown != 0 {
				w = t.fromCallers(a.fd, p, c)
			}
		}
		if a.fd != c.fd && w.at == nil {
			w.at = t.madeAt(a.fd, a.rhs)
		}
		out = out.or(w)
		if out.k&kUnknown != 0 {
			return unknown
		}
	}
	return out
}

// param returns the parameter of fd that e is, if it is one (not the
// receiver).
func (t *tracer) param(fd *ast.FuncDecl, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || fd == nil {
		return nil
	}
	v, _ := t.info.Uses[id].(*types.Var)
	if v == nil || fd.Recv != nil && fd.Recv.Pos() <= v.Pos() && v.Pos() < fd.Recv.End() || !isParam(fd, v) {
		return nil
	}
	return v
}

// fromCallers traces parameter p of fd, which stores it in a field, to
// what fd's callers in the package pass (not tests): a constructor given
// the instance's identity by its package (NewElector(rdb,
// hostnamePID())) stores a weak value, made on the caller's side. Only a
// weak value from every caller counts; a caller passing anything else,
// callers passing different constants (each names its own holder), or
// no caller in the package leaves the value the caller's (unknown).
func (t *tracer) fromCallers(fd *ast.FuncDecl, p *types.Var, c ctx) val {
	fn, _ := t.info.Defs[fd.Name].(*types.Func)
	if fn == nil || c.depth > 8 {
		return unknown
	}
	sig := fn.Type().(*types.Signature)
	idx := -1
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == p {
			idx = i
		}
	}
	if idx < 0 || sig.Variadic() && idx == sig.Params().Len()-1 {
		return unknown
	}
	calls := t.callsOf()[fn]
	if len(calls) == 0 {
		return unknown
	}
	out := val{}
	consts := map[string]bool{}
	for _, cl := range calls {
		if len(cl.call.Args) != sig.Params().Len() {
			return unknown
		}
		arg := cl.call.Args[idx]
		w := t.eval(arg, ctx{fd: cl.fd, depth: c.depth + 1})
		if w.at == nil {
			w.at = t.madeAt(cl.fd, arg)
		}
		if w.k == kConst {
			consts[w.konst] = true
		}
		if out = out.or(w); !out.k.weak() {
			return unknown
		}
	}
	if len(consts) > 1 {
		return unknown // "worker-a" and "worker-b": each call site names its holder
	}
	return out
}

// siteCall is a call in the package and the function it is in.
type siteCall struct {
	call *ast.CallExpr
	fd   *ast.FuncDecl
}

// callsOf maps each function of the package to its static calls outside
// test files.
func (t *tracer) callsOf() map[*types.Func][]siteCall {
	if t.calls != nil {
		return t.calls
	}
	t.calls = map[*types.Func][]siteCall{}
	for _, fd := range t.decls {
		if lifecycle.IsTestFile(t.pass.Fset, fd.Pos()) {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn, ok := typeutil.Callee(t.info, call).(*types.Func); ok && fn.Pkg() == t.pass.Pkg {
					t.calls[fn] = append(t.calls[fn], siteCall{call, fd})
				}
			}
			return true
		})
	}
	return t.calls
}

// composed returns v, made from parts: when two or more of them are not
// constants (fmt.Sprintf("%s-%d-%d", key, now, seq()), key + "-" + id),
// the value is made where they are put together, not inside a helper
// that made one of them.
func (t *tracer) composed(v val, parts ...ast.Expr) val {
	n := 0
	for _, p := range parts {
		if tv, ok := t.info.Types[p]; !ok || tv.Value == nil {
			n++
		}
	}
	if n >= 2 {
		v.at = nil
	}
	return v
}

// madeAt returns where the value e stores is made: through locals of fd
// assigned once (id := fmt.Sprintf(...); &S{token: id}), the line that
// makes it, which is the one to change.
func (t *tracer) madeAt(fd *ast.FuncDecl, e ast.Expr) ast.Expr {
	for range 4 {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return e
		}
		v, _ := t.info.Uses[id].(*types.Var)
		if v == nil || isParam(fd, v) {
			return e
		}
		as := t.localsOf(fd)[v]
		if len(as) == 0 || slices.ContainsFunc(as, func(a assign) bool { return a.idx == -2 }) {
			return e
		}
		if len(as) > 1 || as[0].idx != -1 {
			// host, err := os.Hostname() (with a fallback assigned after
			// it): made where the variable is first assigned.
			return as[0].rhs
		}
		e = as[0].rhs
	}
	return e
}

// neverSet is the value of a variable nothing in the package assigns: an
// unexported string or integer field no other package can set either
// keeps its zero value, the same for every holder.
func neverSet(v *types.Var) val {
	if !v.IsField() || v.Exported() {
		return unknown
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	switch {
	case !ok:
		return unknown
	case b.Info()&types.IsString != 0:
		return val{k: kConst, konst: `"" (field ` + v.Name() + ` is never set)`}
	case b.Info()&types.IsInteger != 0:
		return val{k: kConst, konst: "0 (field " + v.Name() + " is never set)"}
	}
	return unknown
}

// litField returns the expression a struct literal gives field f.
func litField(info *types.Info, lit *ast.CompositeLit, f *types.Var) ast.Expr {
	st, ok := typeOf(info, lit).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && info.Uses[id] == f {
				return kv.Value
			}
		} else if i < st.NumFields() && st.Field(i) == f {
			return elt
		}
	}
	return nil
}

// call traces the result idx (-1: the only one) of a call.
func (t *tracer) call(call *ast.CallExpr, idx int, c ctx) val {
	if tv, ok := t.info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		return t.eval(call.Args[0], c) // a conversion
	}
	args := func() val {
		out := val{}
		for _, a := range call.Args {
			out = out.or(t.eval(a, c))
		}
		return t.composed(out, call.Args...)
	}
	switch fn := typeutil.Callee(t.info, call).(type) {
	case *types.Builtin:
		switch fn.Name() {
		case "len", "cap", "make":
			return val{k: kNeutral}
		case "append":
			return args()
		}
		return unknown
	case *types.Func:
		if isClockRead(fn.Type(), fn.Name(), call) {
			return val{k: kTime}
		}
		return t.funcCall(call, fn, idx, c, args)
	case *types.Var, nil: // a func value
		if tv, ok := t.info.Types[call.Fun]; ok && isClockRead(tv.Type, "", call) {
			return val{k: kTime}
		}
	}
	return unknown
}

// isClockRead reports whether a call reads an injected clock: a func
// value of type func() time.Time (a now field set to time.Now so that
// tests can replace it) or a Now() time.Time method of an interface (a
// Clock). What it returns is a timestamp, whatever stands behind it.
func isClockRead(t types.Type, method string, call *ast.CallExpr) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || len(call.Args) != 0 || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isTime(sig.Results().At(0).Type()) {
		return false
	}
	if method == "" {
		return true
	}
	recv := sig.Recv()
	return method == "Now" && recv != nil && types.IsInterface(recv.Type())
}

func (t *tracer) funcCall(call *ast.CallExpr, fn *types.Func, idx int, c ctx, args func() val) val {
	if fn.Pkg() == nil {
		return unknown
	}
	recv := func() val {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return t.eval(sel.X, c)
		}
		return unknown
	}
	sig := fn.Type().(*types.Signature)
	path, name := fn.Pkg().Path(), fn.Name()
	switch {
	case path == "time" && sig.Recv() == nil:
		switch name {
		case "Now":
			return val{k: kTime}
		case "Since", "Until":
			return val{k: kNeutral}
		}
		return unknown
	case path == "time" && isDuration(sig.Recv().Type()):
		return val{k: kNeutral}
	case path == "time" && isTime(sig.Recv().Type()):
		// t.Unix(), t.Add(ttl).UnixNano(), t.Format(layout): as t.
		r := recv()
		if r.k&kTime == 0 {
			return unknown
		}
		if name == "Format" || name == "AppendFormat" {
			return r // the layout shapes the text; it adds no uniqueness
		}
		if name == "UnixNano" {
			r.k |= kNano
		}
		return r.or(args())
	case isGTime(path) && sig.Recv() == nil:
		// GoFrame's clock: gtime.Now(), gtime.Timestamp(), gtime.Datetime().
		if name == "Now" || strings.HasPrefix(name, "Timestamp") || name == "Datetime" || name == "Date" {
			return val{k: kTime}
		}
		return unknown
	case isGTime(path):
		// gtime.Now().Unix(), .TimestampMilli(), .Format(layout): as the Time.
		r := recv()
		if r.k&kTime == 0 {
			return unknown
		}
		return r.or(args())
	case (path == "net" || path == "net/netip") && sig.Recv() != nil && name == "String" && len(call.Args) == 0:
		// ip.String(), ipNet.IP.To4().String(), addr.String(): an
		// address names a machine (or a network), never one holder on
		// it, like the hostname.
		return val{k: kAddr}
	case path == "os":
		switch name {
		case "Hostname":
			if idx <= 0 {
				return val{k: kHost}
			}
		case "Getpid", "Getppid":
			return val{k: kPID}
		}
		return unknown
	case isMathRand(path):
		if idx > 0 {
			return unknown
		}
		if fullRange[name] && (sig.Recv() == nil && !t.badlySeeded(c.fd) || sig.Recv() != nil && (t.seededOnce(call) || randParam(t.info, c.fd, call))) {
			// 31 to 64 bits from a source seeded once at random (Go's
			// global one, or a package Rand seeded from the clock at
			// start): unique enough for a lock value, if not secret. A
			// Rand the function is given is its caller's to judge.
			return unknown
		}
		return val{k: kMathRand}
	case transparent(fn):
		if sig.Recv() != nil && recv().k&kUnknown != 0 && path != "encoding/base64" && path != "encoding/base32" {
			return unknown
		}
		return args()
	}
	if impl := t.soleImpl(fn); impl != nil {
		fn = impl // t.Holder() where *ticket is the package's only Ticket
	}
	if fd := t.declOf[fn.Origin()]; fd != nil {
		if idx < 0 {
			idx = 0
		}
		r := t.returns(fd, idx)
		if r.k&kUnknown != 0 {
			r = t.returnsFor(fd, call, idx, c)
		}
		if r.at == nil && r.k.weak() && fd != c.fd {
			r.at = call
		}
		return r
	}
	var f weakFact
	if t.pass.ImportObjectFact(fn.Origin(), &f) {
		if idx < 0 {
			idx = 0
		}
		if idx < len(f.Results) && kind(f.Results[idx]).weak() {
			return val{k: kind(f.Results[idx]), konst: f.Const}
		}
	}
	return unknown
}

func isTime(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}

// returns traces result idx of a function declared in this package over
// all its return statements.
func (t *tracer) returns(fd *ast.FuncDecl, idx int) val {
	k := retKey{fd, idx}
	if v, ok := t.rets[k]; ok {
		if v == nil {
			return unknown // recursion
		}
		return *v
	}
	t.rets[k] = nil
	out := val{}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if out.k&kUnknown != 0 {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
			c := ctx{fd: fd}
			switch {
			case idx < len(n.Results) && len(n.Results) > 1 || len(n.Results) == 1 && idx == 0 && !isTuple(t.info, n.Results[0]):
				r := t.eval(n.Results[idx], c)
				if r.at == nil && r.k.weak() {
					r.at = t.madeAt(fd, n.Results[idx]) // made here, in the helper
				}
				out = out.or(r)
			case len(n.Results) == 1:
				call, ok := ast.Unparen(n.Results[0]).(*ast.CallExpr)
				if !ok {
					out = unknown
					return false
				}
				out = out.or(t.call(call, idx, c))
			default:
				// A bare return: the named result as it stands. One the
				// body never assigns is its zero value, a constant
				// (return on an error before ip is found); else unknown.
				if r := namedResult(fd, idx, t.info); r != nil && !assignedIn(t.info, fd.Body, r) {
					out = out.or(val{k: kConst, konst: `""`})
				} else {
					out = unknown
					return false
				}
			}
		}
		return true
	})
	if !found {
		out = unknown
	}
	if out.k&kAddr != 0 && out.k&^(kAddr|kConst) == 0 {
		// A helper that finds the host's address (or a fallback
		// constant) is right as it is: the line to change is the
		// caller's, that made an address its lock value. A helper that
		// builds a lock value from an address and more is reported
		// where it builds it.
		out.at = nil
	}
	t.rets[k] = &out
	return out
}

// returnsFor traces the result of a function of this package with one
// return statement for one call, its parameters bound to the call's
// arguments: GetUnixMillis() { return GetUnixMillisByTime(time.Now()) }
// with GetUnixMillisByTime(t) { return t.UnixNano() / 1e6 } is a
// timestamp. Unknown for methods, variadic functions and other shapes.
func (t *tracer) returnsFor(fd *ast.FuncDecl, call *ast.CallExpr, idx int, c ctx) val {
	fn, ok := t.info.Defs[fd.Name].(*types.Func)
	if !ok || fd.Recv != nil || fd.Body == nil || len(fd.Body.List) != 1 || c.depth > 8 {
		return unknown
	}
	sig := fn.Type().(*types.Signature)
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || sig.Variadic() || sig.Params().Len() != len(call.Args) || idx >= len(ret.Results) || len(ret.Results) != sig.Results().Len() {
		return unknown
	}
	bound := map[*types.Var]ast.Expr{}
	for i := range sig.Params().Len() {
		bound[sig.Params().At(i)] = call.Args[i]
	}
	outer := c
	return t.eval(ret.Results[idx], ctx{fd: fd, depth: c.depth + 1, bound: bound, outer: &outer})
}

func isTuple(info *types.Info, e ast.Expr) bool {
	_, ok := info.TypeOf(e).(*types.Tuple)
	return ok
}

// keyMethod sees through a key made by a method of this package with one
// return statement (func (p Lock) key() string { return "lock:" + p.Name }):
// the fields of its receiver the key is built from, and the receiver
// expression at the call.
func (t *tracer) keyMethod(keyExpr ast.Expr) (map[*types.Var]bool, string) {
	call, ok := ast.Unparen(keyExpr).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil, ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	fn, _ := typeutil.Callee(t.info, call).(*types.Func)
	if fn == nil {
		return nil, ""
	}
	fd := t.declOf[fn.Origin()]
	if fd == nil || fd.Recv == nil || len(fd.Recv.List[0].Names) == 0 || len(fd.Body.List) != 1 {
		return nil, ""
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, ""
	}
	recv := t.info.Defs[fd.Recv.List[0].Names[0]]
	fields := map[*types.Var]bool{}
	ast.Inspect(ret.Results[0], func(n ast.Node) bool {
		if fs, ok := n.(*ast.SelectorExpr); ok {
			if s := t.info.Selections[fs]; s != nil && s.Kind() == types.FieldVal {
				if id, ok := ast.Unparen(fs.X).(*ast.Ident); ok && t.info.Uses[id] == recv {
					fields[s.Obj().(*types.Var)] = true
				}
			}
		}
		return true
	})
	return fields, types.ExprString(sel.X)
}

// optionalArg reports whether e is an element of fd's variadic parameter
// (args[0] of func(key string, args ...any)): a value only some callers pass.
func (t *tracer) optionalArg(e ast.Expr, fd *ast.FuncDecl) bool {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok || fd == nil {
		return false
	}
	id, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok {
		return false
	}
	fn, ok := t.info.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Variadic() && t.info.Uses[id] == sig.Params().At(sig.Params().Len()-1)
}

// soleImpl returns the method implementing interface method m when
// exactly one named type of this package implements m's interface, or nil.
func (t *tracer) soleImpl(m *types.Func) *types.Func { return soleimpl.Of(t.pass.Pkg, m) }

// isGTime reports whether path is GoFrame's time package.
func isGTime(path string) bool {
	return path == "github.com/gogf/gf/v2/os/gtime" || path == "github.com/gogf/gf/os/gtime"
}

// namedResult returns the variable of fd's result idx when the results
// are named.
func namedResult(fd *ast.FuncDecl, idx int, info *types.Info) *types.Var {
	if fd.Type.Results == nil {
		return nil
	}
	i := 0
	for _, f := range fd.Type.Results.List {
		for _, n := range f.Names {
			if i == idx {
				v, _ := info.Defs[n].(*types.Var)
				return v
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	return nil
}

// assignedIn reports whether body assigns v (v = e, v, err = f(), v++,
// &v handed on).
func assignedIn(info *types.Info, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && info.ObjectOf(id) == v {
				found = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && info.ObjectOf(id) == v {
				found = true
			}
		}
		return !found
	})
	return found
}
