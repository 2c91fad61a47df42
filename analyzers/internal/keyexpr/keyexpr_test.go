package keyexpr

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

func TestPretty(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`call(fmt.Sprintf,"lock:%s",*)`, `fmt.Sprintf("lock:%s", *)`},
		{`concat("job:",*)`, `"job:" + *`},
		{`field(example.com/app/locks.Mutex.key)`, `Mutex.key`},
		{`var(example.com/app.lockKey)`, `app.lockKey`},
		{`call(example.com/app.lockKey,concat("a,b",*))`, `app.lockKey("a,b" + *)`},
		{`*`, `*`},
		{`concat(result(call(example.com/app.lockKey,*),0),":x")`, `app.lockKey(*) + ":x"`},
	} {
		if got := Pretty(tt.in); got != tt.want {
			t.Errorf("Pretty(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A helper that prefixes its key, called with a prefixed key, names the
// key the prefixes written out in one expression name.
func TestSubstFlattens(t *testing.T) {
	for _, tt := range []struct {
		helper string
		args   []string
		want   string
	}{
		{`concat("app_",$p0$)`, []string{`concat("lock_",$p0$)`}, `concat("app_lock_",$p0$)`},
		{`concat("app_",$p0$,":",$p1$)`, []string{`concat("lock_",$l$)`, `concat("a","b")`}, `concat("app_lock_",$l$,":ab")`},
		{`call(pkg.f,concat("a",$p0$))`, []string{`concat("b",$x:g(1,2)$)`}, `call(pkg.f,concat("ab",$x:g(1,2)$))`},
		{`concat("app_",$p0$)`, []string{`"lock"`}, `"app_lock"`}, // as the constant "app_" + "lock" renders
		{`$p0$`, []string{`concat("a\"b",concat("c",$p1$))`}, `concat("a\"bc",$p1$)`},
	} {
		var args []Key
		for _, a := range tt.args {
			args = append(args, FromExact(a, true))
		}
		if got := FromExact(tt.helper, true).Subst(args).Exact; got != tt.want {
			t.Errorf("%s with %v = %s, want %s", tt.helper, tt.args, got, tt.want)
		}
	}
}

func TestNames(t *testing.T) {
	for s, want := range map[string]bool{"lock:": true, "jobs-%d": true, ":": false, "%s:%s": false, "%d": false, "k1": true, "锁": true} {
		if got := names(s); got != want {
			t.Errorf("names(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestComponentFields: a field of a local or parameter inside an
// anchoring format is a value like the variable; a receiver's field
// still anchors, and a field that is the whole key is not a component.
func TestComponentFields(t *testing.T) {
	const src = `package p

import "fmt"

type Seat struct{ No int }

type L struct{ name, key string }

func acquire(table, no int) string { return fmt.Sprintf("seat_lock:%d:%d", table, no) }

func leave(table int, seat Seat) string { return fmt.Sprintf("seat_lock:%d:%d", table, seat.No) }

func leaveConcat(table int, seat *Seat) string { return "seat_lock:" + fmt.Sprint(table) + ":" + fmt.Sprint(seat.No) }

func acquireConcat(table, no int) string { return "seat_lock:" + fmt.Sprint(table) + ":" + fmt.Sprint(no) }

func (l *L) named() string { return fmt.Sprintf("lock:%s", l.name) }

func other(id string) string { return fmt.Sprintf("lock:%s", id) }

func (l *L) whole() string { return l.key }

func handle(h *L) string { return h.key }
`
	checkSame(t, renderReturns(t, src), []sameCase{
		{"acquire", "leave", true},
		{"acquireConcat", "leaveConcat", true},
		{"named", "other", false},
		{"whole", "handle", true},
	})
}

type sameCase struct {
	a, b string
	same bool
}

// checkSame checks Same on the keys of pairs of functions.
func checkSame(t *testing.T, keys map[string]Key, cases []sameCase) {
	t.Helper()
	for _, tt := range cases {
		if got := Same(keys[tt.a], keys[tt.b], false); got != tt.same {
			t.Errorf("Same(%s %v, %s %v) = %v, want %v", tt.a, keys[tt.a], tt.b, keys[tt.b], got, tt.same)
		}
	}
}

// renderReturns type-checks src and renders the returned expression of
// each function as its key.
func renderReturns(t *testing.T, src string) map[string]Key {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	out := map[string]Key{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		sig := info.Defs[fd.Name].(*types.Func).Type().(*types.Signature)
		env := &Env{Info: info, Params: map[*types.Var]int{}, Recv: sig.Recv()}
		for i := 0; i < sig.Params().Len(); i++ {
			env.Params[sig.Params().At(i)] = i
		}
		ret := fd.Body.List[len(fd.Body.List)-1].(*ast.ReturnStmt)
		out[fd.Name.Name] = env.Of(ret.Results[0])
	}
	return out
}

// TestFuncValueKeys: a key made by a function held in a struct field or a
// package variable names the same key in every method, as a method call
// would; a function passed as a parameter, or held in a local, does not.
func TestFuncValueKeys(t *testing.T) {
	const src = `package p

type S struct {
	keyFunc func(string) string
	other   func(string) string
}

var keyOf = func(id string) string { return "job:" + id }

func (s *S) start(chat string) string { return s.keyFunc(chat) }

func (s *S) finish(chat string) string { return s.keyFunc(chat) }

func (s *S) elsewhere(chat string) string { return s.other(chat) }

func take(id string) string { return keyOf(id) }

func give(id string) string { return keyOf(id) }

func viaParam(f func(string) string, id string) string { return f(id) }

func viaParam2(g func(string) string, id string) string { return g(id) }

func viaLocal(id string) string {
	f := func(s string) string { return s }
	return f(id)
}
`
	keys := renderReturns(t, src)
	checkSame(t, keys, []sameCase{
		{"start", "finish", true},
		{"start", "elsewhere", false},
		{"take", "give", true},
		{"take", "start", false},
		{"viaParam", "viaParam2", false},
		{"viaParam", "viaLocal", false},
	})
	if got, want := Pretty(keys["start"].Exact), "S.keyFunc(*)"; got != want {
		t.Errorf("Pretty(%s) = %q, want %q", keys["start"].Exact, got, want)
	}
}

// TestBareDeclaredKeys: a local declared without a value and assigned
// once at the top of its function names what it was assigned; one
// assigned in a branch, or twice, stays unknown.
func TestBareDeclaredKeys(t *testing.T) {
	const src = `package p

func lockKey(id string) string { return "lock:" + id }

func acquire(id string, skip bool) string {
	var key string
	if skip {
		return ""
	}
	key = lockKey(id)
	return key
}

func release(id string) string {
	var key string
	key = lockKey(id)
	return key
}

func branch(id string, b bool) string {
	var key string
	if b {
		key = lockKey(id)
	}
	return key
}

func twice(id string) string {
	var key string
	key = lockKey(id)
	key = "other:" + id
	return key
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	defs := NewDefs(info, []*ast.File{f})
	keys := map[string]Key{}
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		sig := info.Defs[fd.Name].(*types.Func).Type().(*types.Signature)
		env := &Env{Info: info, Params: map[*types.Var]int{}, Defs: defs}
		for i := 0; i < sig.Params().Len(); i++ {
			env.Params[sig.Params().At(i)] = i
		}
		ret := fd.Body.List[len(fd.Body.List)-1].(*ast.ReturnStmt)
		keys[fd.Name.Name] = env.Of(ret.Results[0])
	}
	checkSame(t, keys, []sameCase{
		{"acquire", "release", true},
		{"acquire", "branch", false},
		{"acquire", "twice", false},
	})
	if !keys["acquire"].Known() {
		t.Errorf("acquire's key %v is unknown", keys["acquire"])
	}
}

// TestPlainFormats: fmt.Sprintf with only plain %s, %d and %v verbs names
// the key its concatenation names; flags, widths and other verbs do not.
func TestPlainFormats(t *testing.T) {
	const src = `package p

import (
	"fmt"
	"strconv"
)

const prefix = "seat_lock:"

func lock(seat string) string { return "seat_lock:" + seat }

func unlock(seat string) string { return fmt.Sprintf("seat_lock:%s", seat) }

func unlockConst(seat string) string { return fmt.Sprintf("%s%v", prefix, seat) }

func job(name string, n int) string { return name + ":job:" + strconv.Itoa(n) }

func jobf(name string, n int) string { return fmt.Sprintf("%s:job:%d", name, n) }

func padded(name string, n int) string { return fmt.Sprintf("%s:job:%05d", name, n) }

func quoted(seat string) string { return fmt.Sprintf("seat_lock:%q", seat) }

func fixed() string { return fmt.Sprintf("lock:%s:%d", "report", 7) }

func fixedConcat() string { return "lock:report:7" }

func order(id string) string { return fmt.Sprintf("order_lock:%s", id) }
`
	checkSame(t, renderReturns(t, src), []sameCase{
		{"lock", "unlock", true},
		{"lock", "unlockConst", true},
		{"job", "jobf", true},
		{"jobf", "padded", false},
		{"lock", "quoted", false},
		{"fixed", "fixedConcat", true},
		{"unlock", "order", false},
	})
}

func TestPrefixedParam(t *testing.T) {
	for _, tt := range []struct {
		exact string
		want  int
	}{
		{`$p1$`, 1},
		{`concat("app_",$p0$)`, 0},
		{`concat("a\"b",$p2$)`, 2},
		{`concat($p0$,":x")`, -1},
		{`concat("app_",$p0$,$p1$)`, -1},
		{`call(pkg.prefixed,$p0$)`, -1},
	} {
		if got := FromExact(tt.exact, true).PrefixedParam(); got != tt.want {
			t.Errorf("PrefixedParam(%s) = %d, want %d", tt.exact, got, tt.want)
		}
	}
}

func TestLockPrefixName(t *testing.T) {
	for name, want := range map[string]bool{
		"LockKeyPrefix":         true,
		"lockPrefix":            true,
		"LOCK_ROOMSTATE_PREFIX": true,
		"PrefixPriceSyncLock":   true,
		"MutexPrefix":           true,
		"locksPrefix":           true,
		"LOCKER_PREFIX":         true,
		"loginLockoutPrefix":    false,
		"KeyPrefix":             false,
		"KeyPrefixBlockHash":    false, // "lock" inside Block
		"ClockPrefix":           false,
		"LockTTL":               false,
	} {
		if got := lockPrefixName(name); got != want {
			t.Errorf("lockPrefixName(%q) = %v, want %v", name, got, want)
		}
	}
}
