// Package keyexpr decides when two Go expressions name the same Redis key.
//
// Every key (or value) expression is rendered into a canonical string, a
// [Key]. Two expressions in one function name the same key when their
// Exact forms are equal: the same variable, the same field, the same
// constant string, the same fmt.Sprintf format and arguments, the same
// concatenation or the same helper call with the same arguments. A local
// variable assigned exactly once is replaced by its definition, so
//
//	key := "lock:" + id
//	rdb.SetNX(ctx, key, tok, ttl)
//	rdb.Del(ctx, "lock:"+id)
//
// names one key twice. Across functions only the Shape is comparable: locals
// and parameters become "*", and a shape counts only when it is Anchored (it
// holds a constant string, a struct field, a package variable, a helper
// call, or a call of a function kept in a field or package variable), so that "lock:"+orderID in one handler and "lock:"+id in another
// match, while two unrelated parameters never do.
//
// Parameters render as $pN$ (N is the index in the signature), so a summary
// of what a function does to "$p1$" can be applied at a call site with
// [Key.Subst]. The strings are plain text and gob-encodable, which lets
// analysis facts carry them between packages.
package keyexpr

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/types/typeutil"
)

// Key is the canonical form of a key expression.
type Key struct {
	Exact    string // comparable within one function; "" when unknown
	Shape    string // Exact with locals and parameters replaced by "*"
	Anchored bool   // Shape names something stable across functions
}

// Family returns the constant text a key is built from, in order
// ("mutex:db:user:info:%s" for fmt.Sprintf("mutex:db:user:info:%s", id)
// and for the same format with info.ID): keys of one family name the
// same kind of lock, whatever identifies the instance. "" when the key
// has no constant text.
func (k Key) Family() string {
	return strings.Join(quoted.FindAllString(k.Shape, -1), "*")
}

var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// Known reports whether the expression could be rendered.
func (k Key) Known() bool { return k.Exact != "" }

// String returns a short human form for messages.
func (k Key) String() string { return Pretty(k.Shape) }

// HasParams reports whether the key depends on a parameter of its function.
func (k Key) HasParams() bool { return strings.Contains(k.Exact, "$p") }

// Param returns N when the key is exactly parameter N, else -1.
func (k Key) Param() int {
	if m := paramOnly.FindStringSubmatch(k.Exact); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return -1
}

// ParamUnderHelper returns N when the key is one helper call applied to
// parameter N alone (serialKey(key), prefixed(k)), else -1. Such a key
// names whatever its caller passes, as parameter N itself does; only the
// helper anchors its shape.
func (k Key) ParamUnderHelper() int {
	if m := helperOfParam.FindStringSubmatch(k.Exact); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return -1
}

// PrefixedParam returns N when the key is parameter N, or a constant
// prefix before it (keyPrefix + key: a client wrapper that namespaces
// every key), else -1.
func (k Key) PrefixedParam() int {
	if n := k.Param(); n >= 0 {
		return n
	}
	if m := prefixedParam.FindStringSubmatch(k.Exact); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return -1
}

var (
	prefixedParam = regexp.MustCompile(`^concat\("(?:[^"\\]|\\.)*",\$p(\d+)\$\)$`)
	helperOfParam = regexp.MustCompile(`^call\([^,()$"]+,\$p(\d+)\$\)$`)
	paramOnly     = regexp.MustCompile(`^\$p(\d+)\$$`)
	placeholder   = regexp.MustCompile(`\$[a-z][^$]*\$`)
	paramRef      = regexp.MustCompile(`\$p(\d+)\$`)
)

// Subst replaces parameter placeholders by the keys of the arguments at a
// call site. It returns an unknown Key when a needed argument is unknown.
func (k Key) Subst(args []Key) Key {
	if !k.Known() {
		return Key{}
	}
	ok := true
	anchored := k.Anchored
	exact := paramRef.ReplaceAllStringFunc(k.Exact, func(m string) string {
		n, _ := strconv.Atoi(m[2 : len(m)-1])
		if n >= len(args) || !args[n].Known() {
			ok = false
			return m
		}
		anchored = anchored || args[n].Anchored
		return args[n].Exact
	})
	if !ok {
		return Key{}
	}
	exact = normalize(exact)
	return Key{Exact: exact, Shape: shape(exact), Anchored: anchored}
}

// normalize rewrites the nested concatenations a substitution makes the
// way [Env.Of] renders them from source: a helper's "app_" + key called
// with "lock_" + id is concat("app_lock_",id), as "app_" + "lock_" + id
// written out is, not concat("app_",concat("lock_",id)).
func normalize(exact string) string {
	if !strings.Contains(exact, "concat(") {
		return exact
	}
	out, _, _ := normTerm(exact, 0)
	return out
}

// normTerm normalizes the term at s[i:], returning it, its parts when it
// is a concatenation, and the index after it.
func normTerm(s string, i int) (string, []string, int) {
	if i >= len(s) {
		return "", nil, i
	}
	switch s[i] {
	case '"':
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j+1, len(s))
		return s[i:j], nil, j
	case '$':
		k := strings.IndexByte(s[i+1:], '$')
		if k < 0 {
			return s[i:], nil, len(s)
		}
		return s[i : i+k+2], nil, i + k + 2
	}
	j := i
	for j < len(s) && s[j] != '(' && s[j] != ',' && s[j] != ')' {
		j++
	}
	head := s[i:j]
	if j >= len(s) || s[j] != '(' {
		return head, nil, j
	}
	var args []string
	j++
	for j < len(s) && s[j] != ')' {
		a, parts, next := normTerm(s, j)
		j = next
		if head == "concat" && parts != nil {
			for _, p := range parts {
				args = appendPart(args, p)
			}
		} else if head == "concat" {
			args = appendPart(args, a)
		} else {
			args = append(args, a)
		}
		if j < len(s) && s[j] == ',' {
			j++
		}
	}
	j++ // ')'
	text := head + "(" + strings.Join(args, ",") + ")"
	if head == "concat" {
		if len(args) == 1 {
			text = args[0] // "app_" + "lock" is the constant "app_lock"
		}
		return text, args, j
	}
	return text, nil, j
}

// appendPart appends a part of a concatenation, merging adjacent
// constants as flatten does.
func appendPart(parts []string, p string) []string {
	if n := len(parts); n > 0 && isQuoted(parts[n-1]) && isQuoted(p) {
		a, errA := strconv.Unquote(parts[n-1])
		b, errB := strconv.Unquote(p)
		if errA == nil && errB == nil {
			parts[n-1] = strconv.Quote(a + b)
			return parts
		}
	}
	return append(parts, p)
}

// FromExact rebuilds a Key from its Exact form (as stored in a fact).
func FromExact(exact string, anchored bool) Key {
	if exact == "" {
		return Key{}
	}
	return Key{Exact: exact, Shape: shape(exact), Anchored: anchored}
}

// Exported returns k with every local placeholder replaced by one generic
// local, so it can be stored in a fact and read in another function.
func (k Key) Exported() Key {
	if !k.Known() {
		return k
	}
	exact := placeholder.ReplaceAllStringFunc(k.Exact, func(m string) string {
		if strings.HasPrefix(m, "$p") {
			return m
		}
		return "$l$"
	})
	return FromExact(exact, k.Anchored)
}

// Field returns the key of field name of struct type t, as a selection
// x.name on a value of that type renders.
func Field(t types.Type, name string) Key {
	return FromExact("field("+typeName(t)+"."+name+")", true)
}

// VarOf returns the variable an identifier or a selector names (v,
// pkg.Name, x.field), or nil.
func VarOf(info *types.Info, e ast.Expr) *types.Var {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// Same reports whether a and b name the same key. sameFunc says whether
// both were rendered in the same function (so locals are comparable).
func Same(a, b Key, sameFunc bool) bool {
	if !a.Known() || !b.Known() {
		return false
	}
	if sameFunc && a.Exact == b.Exact {
		return true
	}
	return a.Anchored && b.Anchored && a.Shape == b.Shape
}

func shape(exact string) string { return placeholder.ReplaceAllString(exact, "*") }

// Pretty turns a canonical string into Go-like text for messages:
// call(fmt.Sprintf,"lock:%s",*) becomes fmt.Sprintf("lock:%s", *).
func Pretty(s string) string {
	out, _ := pretty(s, 0)
	if len(out) > 80 {
		out = out[:77] + "..."
	}
	return out
}

// pretty renders one term starting at s[i:], returning it and the index
// after it.
func pretty(s string, i int) (string, int) {
	if i >= len(s) {
		return "", i
	}
	if s[i] == '"' {
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		return s[i:min(j+1, len(s))], j + 1
	}
	if s[i] == '$' {
		j := strings.IndexByte(s[i+1:], '$')
		if j < 0 {
			return s[i:], len(s)
		}
		return "*", i + j + 2
	}
	j := i
	for j < len(s) && s[j] != '(' && s[j] != ',' && s[j] != ')' {
		j++
	}
	head := s[i:j]
	if j >= len(s) || s[j] != '(' {
		return head, j
	}
	var args []string
	j++
	for j < len(s) && s[j] != ')' {
		var a string
		a, j = pretty(s, j)
		args = append(args, a)
		if j < len(s) && s[j] == ',' {
			j++
		}
	}
	j++ // ')'
	short := func(name string) string {
		if k := strings.LastIndexByte(name, '/'); k >= 0 {
			return name[k+1:]
		}
		return name
	}
	switch head {
	case "concat":
		return strings.Join(args, " + "), j
	case "field":
		// path/pkg.Type.field -> Type.field
		if len(args) == 1 {
			name := short(args[0])
			if k := strings.IndexByte(name, '.'); k >= 0 && strings.Count(name, ".") >= 2 {
				name = name[k+1:]
			}
			return name, j
		}
	case "var":
		if len(args) == 1 {
			return short(args[0]), j
		}
	case "result":
		// One result of a multi-value call reads as the call.
		if len(args) == 2 {
			return args[0], j
		}
	case "call":
		if len(args) > 0 {
			name := short(args[0])
			// Methods render as (pkg.T).m; keep T.m.
			name = strings.NewReplacer("(", "", ")", "", "*", "").Replace(name)
			return name + "(" + strings.Join(args[1:], ", ") + ")", j
		}
	}
	return head + "(" + strings.Join(args, ", ") + ")", j
}

// Env is what rendering needs to know about the enclosing function.
type Env struct {
	Info   *types.Info
	Params map[*types.Var]int // parameters of the enclosing declared function
	Recv   *types.Var         // its receiver, if it is a method
	Defs   *Defs              // single definitions of local variables
}

// Of renders e. It never fails; unknown shapes become local placeholders that
// only match the same text in the same function.
func (env *Env) Of(e ast.Expr) Key {
	if e == nil {
		return Key{}
	}
	var anchored bool
	exact := env.render(e, &anchored, 0)
	if exact == "" {
		return Key{}
	}
	return Key{Exact: exact, Shape: shape(exact), Anchored: anchored}
}

const maxDepth = 8

func (env *Env) render(e ast.Expr, anchored *bool, depth int) string {
	if depth > maxDepth {
		return "$x" + strconv.Itoa(int(e.Pos())) + "$"
	}
	e = ast.Unparen(e)
	info := env.Info
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.String {
			str := constant.StringVal(tv.Value)
			*anchored = *anchored || names(str)
			return strconv.Quote(str)
		}
		return tv.Value.ExactString()
	}
	switch e := e.(type) {
	case *ast.Ident:
		return env.ident(e, anchored, depth)
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok {
			if sel.Kind() == types.FieldVal {
				*anchored = true
				return "field(" + typeName(sel.Recv()) + "." + e.Sel.Name + ")"
			}
			return "$x" + strconv.Itoa(int(e.Pos())) + "$"
		}
		// pkg.Name
		return env.ident(e.Sel, anchored, depth)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			break
		}
		var parts []string
		env.flatten(e, &parts, anchored, depth, env.anchoringConstant(e))
		return "concat(" + strings.Join(parts, ",") + ")"
	case *ast.CallExpr:
		return env.call(e, anchored, depth)
	case *ast.StarExpr:
		return env.render(e.X, anchored, depth+1)
	}
	return "$x:" + types.ExprString(e) + "$"
}

func (env *Env) flatten(e ast.Expr, parts *[]string, anchored *bool, depth int, components bool) {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
		if tv, ok := env.Info.Types[e]; !ok || tv.Value == nil {
			env.flatten(b.X, parts, anchored, depth, components)
			env.flatten(b.Y, parts, anchored, depth, components)
			return
		}
	}
	var s string
	if components {
		s = env.component(e, anchored, depth+1)
	} else {
		s = env.render(e, anchored, depth+1)
	}
	// Merge adjacent constant strings so "a"+"b"+x == "ab"+x.
	if n := len(*parts); n > 0 && isQuoted((*parts)[n-1]) && isQuoted(s) {
		a, _ := strconv.Unquote((*parts)[n-1])
		b, _ := strconv.Unquote(s)
		(*parts)[n-1] = strconv.Quote(a + b)
		return
	}
	*parts = append(*parts, s)
}

// anchoringConstant reports whether a concatenation has a constant part
// that names keys ("seat_lock:" + ...), or a configured prefix named for
// locks (s.config.LockKeyPrefix + ...: a field of the receiver or of a
// package variable, not of a local).
func (env *Env) anchoringConstant(e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := env.Info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return names(constant.StringVal(tv.Value))
	}
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
		return env.anchoringConstant(b.X) || env.anchoringConstant(b.Y)
	}
	if sel, ok := e.(*ast.SelectorExpr); ok && lockPrefixName(sel.Sel.Name) {
		if s, ok := env.Info.Selections[sel]; ok && s.Kind() == types.FieldVal {
			return env.rootedOutsideLocals(sel.X)
		}
	}
	return false
}

// lockPrefixName reports whether a field's name says, in whole words, that
// it holds the prefix of lock keys (LockKeyPrefix, locksPrefix,
// LOCKER_PREFIX, MutexPrefix; not KeyPrefixBlockHash, where "lock" is
// inside Block, nor loginLockoutPrefix).
func lockPrefixName(name string) bool {
	ws := Words(name)
	return slices.Contains(ws, "prefix") && slices.ContainsFunc(ws, func(w string) bool {
		return w == "mutex" || strings.HasPrefix(w, "lock") && w != "lockout"
	})
}

// Words splits an identifier into lower-case words: LockDel ->
// lock, del; unlock_all -> unlock, all; HTTPLock -> http, lock.
func Words(name string) []string {
	var words []string
	start := 0
	rs := []rune(name)
	flush := func(i int) {
		if i > start {
			words = append(words, strings.ToLower(string(rs[start:i])))
		}
		start = i
	}
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '_' || unicode.IsDigit(rs[i]):
			flush(i)
			start = i + 1
		case i > 0 && unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush(i)
		}
	}
	flush(len(rs))
	return words
}

// rootedOutsideLocals reports whether e, a chain of field selections,
// starts at the receiver or at a package variable.
func (env *Env) rootedOutsideLocals(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if v, ok := env.Info.Uses[x.Sel].(*types.Var); ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return true // pkg.Config
			}
			e = x.X
		case *ast.Ident:
			v, ok := env.Info.Uses[x].(*types.Var)
			return ok && (v == env.Recv || v.Pkg() != nil && v.Parent() == v.Pkg().Scope())
		default:
			return false
		}
	}
}

// component renders a part of a key built by formatting: an argument of
// an anchoring Sprintf format, or a part of a concatenation with an
// anchoring constant. There a field of a local variable or parameter
// (seat.SeatNo in Sprintf("seat_lock:%d:%d", tableID, seat.SeatNo)) is a
// value like the variable itself and matches across functions as one;
// a field of the receiver (l.name) still anchors.
func (env *Env) component(e ast.Expr, anchored *bool, depth int) string {
	if depth > maxDepth {
		return env.render(e, anchored, depth)
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(call.Args) > 0 {
		// Through conversions and number formatting: int64(seat.No),
		// strconv.Itoa(seat.No), fmt.Sprint(seat.No).
		if tv, ok := env.Info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
			return env.component(call.Args[0], anchored, depth+1)
		}
		if fn, _ := typeutil.Callee(env.Info, call).(*types.Func); fn != nil {
			switch fn.FullName() {
			case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint", "strconv.Quote":
				return env.component(call.Args[0], anchored, depth+1)
			case "fmt.Sprint":
				args := make([]string, len(call.Args))
				for i, a := range call.Args {
					args[i] = env.component(a, anchored, depth+1)
				}
				return "call(fmt.Sprint," + strings.Join(args, ",") + ")"
			}
		}
	}
	// A local that only copies such a field (messageID := pc.MessageID)
	// is that field.
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && env.Defs != nil && env.Params != nil {
		if v, ok := env.Info.Uses[id].(*types.Var); ok && !v.IsField() && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
			if _, param := env.Params[v]; !param {
				if def, ok := env.Defs.Single(v).(*ast.SelectorExpr); ok {
					return env.component(def, anchored, depth+1)
				}
			}
		}
	}
	if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok && env.Params != nil {
		if s, ok := env.Info.Selections[sel]; ok && s.Kind() == types.FieldVal {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
				if v, ok := env.Info.Uses[id].(*types.Var); ok && v != env.Recv && !v.IsField() && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
					return "$f" + strconv.Itoa(int(v.Pos())) + "." + sel.Sel.Name + "$"
				}
			}
		}
	}
	return env.render(e, anchored, depth)
}

// names reports whether a constant string can tell keys apart across
// functions: "lock:" or "jobs-%d" can, while ":" or "%s:%s" cannot.
func names(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+1 < len(s) {
			i++ // a formatting verb
			continue
		}
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 {
			n++
		}
	}
	return n >= 2
}

func isQuoted(s string) bool { return strings.HasPrefix(s, `"`) }

func (env *Env) ident(id *ast.Ident, anchored *bool, depth int) string {
	obj := env.Info.Uses[id]
	if obj == nil {
		obj = env.Info.Defs[id]
	}
	v, ok := obj.(*types.Var)
	if !ok {
		if obj == nil {
			return ""
		}
		return "$x:" + id.Name + "$"
	}
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		*anchored = true
		return "var(" + v.Pkg().Path() + "." + v.Name() + ")"
	}
	if n, ok := env.Params[v]; ok {
		if env.Defs != nil {
			switch rhs, end, state := env.Defs.reassigned(v); state {
			case once:
				// key = "lock:" + key at the top of the function: later uses
				// are the new value; its right side sees the incoming one.
				if id.Pos() >= end {
					return env.render(rhs, anchored, depth+1)
				}
			case often:
				return "$l" + strconv.Itoa(int(v.Pos())) + "$"
			}
		}
		return "$p" + strconv.Itoa(n) + "$"
	}
	if env.Defs != nil {
		if def := env.Defs.Single(v); def != nil {
			return env.render(def, anchored, depth+1)
		}
		if env.Defs.bare[v] {
			// var key string; ...; key = lockKey(id) at the top of the
			// function: uses after it are that value.
			if rhs, end, state := env.Defs.reassigned(v); state == once && id.Pos() >= end {
				return env.render(rhs, anchored, depth+1)
			}
		}
		if call, i := env.Defs.Tuple(v); call != nil && depth < maxDepth {
			// key, err := s.lockKey(job): one result of the call, named by
			// the call as a single-valued definition is.
			return "result(" + env.call(call, anchored, depth+1) + "," + strconv.Itoa(i) + ")"
		}
	}
	return "$l" + strconv.Itoa(int(v.Pos())) + "$"
}

func (env *Env) call(call *ast.CallExpr, anchored *bool, depth int) string {
	info := env.Info
	// Conversions are transparent: string(k) names the same key as k.
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		return env.render(call.Args[0], anchored, depth+1)
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return env.funcValueCall(call, anchored, depth)
	}
	var args []string
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
		args = append(args, env.render(sel.X, anchored, depth+1))
	}
	formatted := false // Sprintf with a format that names keys
	if f, ok := fn.Type().(*types.Signature); ok && f.Recv() == nil && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" && len(call.Args) > 1 {
		if tv, ok := info.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
			format := constant.StringVal(tv.Value)
			if s, ok := env.plainFormat(format, call.Args[1:], anchored, depth); ok {
				return s
			}
			formatted = names(format)
		}
	}
	for i, a := range call.Args {
		if formatted && i > 0 {
			args = append(args, env.component(a, anchored, depth+1))
			continue
		}
		args = append(args, env.render(a, anchored, depth+1))
	}
	name := fn.FullName()
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal && len(s.Index()) > 1 {
			// A method promoted from an embedded type (Mutex and JSON both
			// embedding base with Key()): the outer type tells the keys apart.
			name += "@" + typeName(s.Recv())
		}
	}
	switch name {
	case "fmt.Sprintf", "fmt.Sprint", "strings.Join", "path.Join":
		// Formatting anchors nothing by itself; its constant parts may.
		return "call(" + name + "," + strings.Join(args, ",") + ")"
	case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint", "strconv.Quote":
		if len(args) > 0 {
			return args[0]
		}
	}
	*anchored = true
	return "call(" + name + "," + strings.Join(args, ",") + ")"
}

// plainFormat renders fmt.Sprintf(format, args...) as the concatenation it
// builds when every verb is a plain %s, %d or %v: Sprintf("lock:%s", id)
// and "lock:" + id name one key, as do Sprintf("%s:%d", a, n) and
// a + ":" + strconv.Itoa(n). Flags, widths and other verbs change the
// text (%05d, %q, %x), so those formats keep their own form (ok false).
func (env *Env) plainFormat(format string, args []ast.Expr, anchored *bool, depth int) (string, bool) {
	var pieces []ast.Expr // nil for a constant piece, in texts
	var texts []string
	var lit strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		if i+1 >= len(format) {
			return "", false
		}
		i++
		switch format[i] {
		case '%':
			lit.WriteByte('%')
			continue
		case 's', 'd', 'v':
		default:
			return "", false
		}
		if next >= len(args) {
			return "", false
		}
		if tv, ok := env.Info.Types[args[next]]; ok && tv.Value != nil {
			// A constant argument is text of the format.
			switch {
			case tv.Value.Kind() == constant.String && format[i] != 'd':
				lit.WriteString(constant.StringVal(tv.Value))
			case tv.Value.Kind() == constant.Int && format[i] != 's':
				lit.WriteString(tv.Value.ExactString())
			default:
				return "", false
			}
			next++
			continue
		}
		if lit.Len() > 0 {
			pieces, texts = append(pieces, nil), append(texts, lit.String())
			lit.Reset()
		}
		pieces, texts = append(pieces, args[next]), append(texts, "")
		next++
	}
	if next != len(args) {
		return "", false
	}
	if lit.Len() > 0 {
		pieces, texts = append(pieces, nil), append(texts, lit.String())
	}
	components := false // as for a concatenation: a constant part names keys
	for i, p := range pieces {
		if p == nil && names(texts[i]) {
			components = true
		}
	}
	parts := make([]string, len(pieces))
	for i, p := range pieces {
		switch {
		case p == nil:
			*anchored = *anchored || names(texts[i])
			parts[i] = strconv.Quote(texts[i])
		case components:
			parts[i] = env.component(p, anchored, depth+1)
		default:
			parts[i] = env.render(p, anchored, depth+1)
		}
	}
	if len(parts) == 1 {
		return parts[0], true
	}
	return "concat(" + strings.Join(parts, ",") + ")", true
}

// funcValueCall renders a call of a function held in a struct field
// (s.keyFunc(chatID)) or a package variable: the same function for every
// method of the type, so it names keys as a method would. Other function
// values are unknown.
func (env *Env) funcValueCall(call *ast.CallExpr, anchored *bool, depth int) string {
	unknown := "$x" + strconv.Itoa(int(call.Pos())) + "$"
	var head string
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		sel, ok := env.Info.Selections[f]
		if !ok {
			// pkg.keyOf: a package variable
			v, ok := env.Info.Uses[f.Sel].(*types.Var)
			if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
				return unknown
			}
			head = "var(" + v.Pkg().Path() + "." + v.Name() + ")"
			break
		}
		if sel.Kind() != types.FieldVal {
			return unknown
		}
		head = "field(" + typeName(sel.Recv()) + "." + f.Sel.Name + ")"
	case *ast.Ident:
		v, ok := env.Info.Uses[f].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
			return unknown
		}
		head = "var(" + v.Pkg().Path() + "." + v.Name() + ")"
	default:
		return unknown
	}
	args := []string{head}
	for _, a := range call.Args {
		args = append(args, env.render(a, anchored, depth+1))
	}
	*anchored = true
	return "call(" + strings.Join(args, ",") + ")"
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		obj := n.Obj()
		if obj.Pkg() != nil {
			return obj.Pkg().Path() + "." + obj.Name()
		}
		return obj.Name()
	}
	return fmt.Sprintf("%T", t)
}

// Defs records, for each local variable, its definition when it is
// assigned exactly once (at its declaration), so renderings can see through
// it. Build it once per package with [NewDefs].
type Defs struct {
	def   map[*types.Var]ast.Expr
	count map[*types.Var]int
	tuple map[*types.Var]tupleDef
	// plain holds each variable's `v = x` assignments that are statements
	// of a function body itself (not nested in an if or a loop).
	plain map[*types.Var][]*ast.AssignStmt
	// bare holds the locals declared without a value (var key string).
	bare map[*types.Var]bool
	// returned holds, for each function of the package with exactly one
	// return statement of one result, that result.
	returned map[*types.Func]ast.Expr
}

// Returned returns the one expression fn, a function of the package,
// returns (func q() string { ...; return query }), or nil.
func (d *Defs) Returned(fn *types.Func) ast.Expr {
	if d == nil {
		return nil
	}
	return d.returned[fn]
}

type reassignment int

const (
	never reassignment = iota // a parameter never assigned
	once                      // assigned once, by a top-level statement
	often                     // anything more complex
)

// reassigned says how a parameter is assigned in its function; for once,
// the right side and where the assignment ends.
func (d *Defs) reassigned(v *types.Var) (ast.Expr, token.Pos, reassignment) {
	switch {
	case d.count[v] == 0:
		return nil, token.NoPos, never
	case d.count[v] == 2 && len(d.plain[v]) == 1:
		as := d.plain[v][0]
		return as.Rhs[0], as.End(), once
	}
	return nil, token.NoPos, often
}

type tupleDef struct {
	call  *ast.CallExpr
	index int
}

// Tuple returns the call and result index of a variable defined once by a
// multi-value assignment (v, err := f()), or nil.
func (d *Defs) Tuple(v *types.Var) (*ast.CallExpr, int) {
	t, ok := d.tuple[v]
	if !ok || d.count[v] != 2 {
		return nil, -1
	}
	return t.call, t.index
}

// Single returns the one expression v is ever assigned, or nil.
func (d *Defs) Single(v *types.Var) ast.Expr {
	if d.count[v] != 1 {
		return nil
	}
	return d.def[v]
}

// Declared returns the expression v was declared with (v := x, var v =
// x), whatever later assignments do, or nil; reassigned says whether it
// is assigned again.
func (d *Defs) Declared(v *types.Var) (x ast.Expr, reassigned bool) {
	return d.def[v], d.count[v] > 1
}

// NewDefs scans files for assignments to local variables.
func NewDefs(info *types.Info, files []*ast.File) *Defs {
	d := &Defs{def: map[*types.Var]ast.Expr{}, count: map[*types.Var]int{}, tuple: map[*types.Var]tupleDef{},
		plain: map[*types.Var][]*ast.AssignStmt{}, bare: map[*types.Var]bool{}, returned: map[*types.Func]ast.Expr{}}
	varOf := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		obj := info.Defs[id]
		if obj == nil {
			obj = info.Uses[id]
		}
		v, _ := obj.(*types.Var)
		return v
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
				if r := soleReturn(fd.Body); r != nil {
					d.returned[fn] = r
				}
			}
			for _, st := range fd.Body.List {
				if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
					if v := varOf(as.Lhs[0]); v != nil {
						d.plain[v] = append(d.plain[v], as)
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					v := varOf(lhs)
					if v == nil {
						continue
					}
					d.count[v]++
					if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
						d.def[v] = n.Rhs[i]
					} else if call, ok := n.Rhs[0].(*ast.CallExpr); ok && n.Tok == token.DEFINE && len(n.Rhs) == 1 {
						d.tuple[v] = tupleDef{call, i}
						d.count[v]++ // never Single; Tuple checks for exactly 2
					} else {
						d.count[v]++ // op-assign, multi-value or plain reassignment
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					v := varOf(name)
					if v != nil && len(n.Values) == 0 {
						d.bare[v] = true
					}
					if v == nil || len(n.Values) == 0 {
						continue
					}
					d.count[v]++
					if len(n.Values) == len(n.Names) {
						d.def[v] = n.Values[i]
					} else {
						d.count[v]++
					}
				}
			case *ast.IncDecStmt:
				if v := varOf(n.X); v != nil {
					d.count[v] += 2
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if v := varOf(n.X); v != nil {
						d.count[v] += 2
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if v := varOf(e); v != nil {
						d.count[v] += 2
					}
				}
			}
			return true
		})
	}
	return d
}

// soleReturn returns the result of body's only return statement (not
// counting those of function literals inside it) when it returns one
// value, else nil.
func soleReturn(body *ast.BlockStmt) ast.Expr {
	var ret *ast.ReturnStmt
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			ret = x
			n++
		}
		return true
	})
	if n != 1 || len(ret.Results) != 1 {
		return nil
	}
	return ret.Results[0]
}
