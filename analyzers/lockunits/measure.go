package lockunits

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
)

// A measure says what quantity an expression holds: a span or a point in
// time, counted in units of per nanoseconds. It is only known when the
// source says so: a time.Duration, a Duration method (Seconds,
// Milliseconds), a time.Time method (Unix, UnixMilli), a division or
// multiplication of one of those by a constant, or a name that ends in a
// unit (ttlSeconds, timeoutMs). A time.Duration divided by a number with
// no unit (ttl/2) is a shorter span, still counted in nanoseconds.
type measure struct {
	per  int64 // nanoseconds per unit; 0 when unknown
	unix bool  // a Unix time, not a span
	dur  bool  // the expression has type time.Duration
	// base is the time.Duration the value is derived from, inside the
	// expression itself (d in d.Seconds(), int64(d), d/time.Second), so a
	// fix can rewrite it.
	base ast.Expr
	// byName is set when the unit comes only from the name of a variable,
	// field or constant.
	byName bool
	// mix is a count multiplied by the wrong time unit, such as
	// time.Duration(ttlMs) * time.Second.
	mix *mixup
}

type mixup struct {
	expr  *ast.BinaryExpr
	count ast.Expr // the operand holding a count
	unit  ast.Expr // the time unit it is multiplied by
	per   int64    // the count's own unit
	by    int64    // the multiplier's unit
}

func (m measure) known() bool { return m.per != 0 }

// measurer computes measures in one package.
type measurer struct {
	info   *types.Info
	defs   *keyexpr.Defs
	consts map[*types.Const]ast.Expr // same-package constant → its value expression
}

func newMeasurer(info *types.Info, defs *keyexpr.Defs, files []*ast.File) *measurer {
	m := &measurer{info: info, defs: defs, consts: map[*types.Const]ast.Expr{}}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			gd, ok := n.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				return true
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != len(vs.Names) {
					continue // implicit repetition or iota: not followed
				}
				for i, name := range vs.Names {
					if c, ok := info.Defs[name].(*types.Const); ok {
						m.consts[c] = vs.Values[i]
					}
				}
			}
			return true
		})
	}
	return m
}

func (m *measurer) of(e ast.Expr) measure { return m.measure(e, 0) }

func (m *measurer) measure(e ast.Expr, depth int) measure {
	e = ast.Unparen(e)
	isDur := isDuration(m.info.TypeOf(e))
	whole := measure{}
	if isDur {
		// A time.Duration that is not a count in disguise is a proper span.
		whole = measure{per: 1, dur: true, base: e}
	}
	if depth > 4 {
		return whole
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		if tv, ok := m.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			in := m.measure(e.Args[0], depth+1)
			if isDuration(tv.Type) {
				if in.dur || !in.known() {
					return whole // time.Duration(n) of an unknown count: can't tell
				}
				in.dur = true
				return in
			}
			if isNumber(tv.Type) {
				in.dur = false
				return in
			}
			return measure{}
		}
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok || len(e.Args) != 0 {
			return whole
		}
		recv := m.info.TypeOf(sel.X)
		switch {
		case isDuration(recv):
			if per, ok := durationMethods[sel.Sel.Name]; ok {
				return measure{per: per, base: sel.X}
			}
		case isTime(recv):
			if per, ok := unixMethods[sel.Sel.Name]; ok {
				return measure{per: per, unix: true}
			}
		}
		return whole
	case *ast.BinaryExpr:
		switch e.Op {
		case token.QUO:
			x := m.measure(e.X, depth+1)
			if _, bare := m.bareConstant(e.Y); bare && x.dur {
				return whole // ttl/2: a shorter span, still in nanoseconds
			}
			c, ok := m.intConst(e.Y)
			if !x.known() || !ok || c <= 0 || x.per > (1<<62)/c {
				return whole
			}
			x.per *= c
			x.dur = isDur
			return x
		case token.MUL:
			if r, ok := m.scale(e, e.X, e.Y, isDur, depth); ok {
				return r
			}
			if r, ok := m.scale(e, e.Y, e.X, isDur, depth); ok {
				return r
			}
		}
		return whole
	case *ast.Ident, *ast.SelectorExpr:
		obj := m.objectOf(e)
		if obj == nil {
			return whole
		}
		if v, ok := obj.(*types.Var); ok && m.defs != nil && !v.IsField() {
			if def := m.defs.Single(v); def != nil {
				r := m.measure(def, depth+1)
				r.base = nil // the definition's text may not mean the same here
				if r.dur {
					r.base = e
				}
				if r.known() {
					return r
				}
			}
		}
		if c, ok := obj.(*types.Const); ok {
			if def := m.consts[c]; def != nil {
				if r := m.measure(def, depth+1); r.known() && !r.byName {
					r.base = nil
					if r.dur {
						r.base = e
					}
					return r
				}
			}
		}
		if isDur {
			return whole
		}
		if isNumber(obj.Type()) {
			if per := unitOfName(obj.Name()); per != 0 {
				return measure{per: per, byName: true}
			}
		}
		return whole
	}
	return whole
}

// scale measures count * unit, where unit is a constant.
func (m *measurer) scale(e *ast.BinaryExpr, count, unit ast.Expr, isDur bool, depth int) (measure, bool) {
	c, ok := m.intConst(unit)
	if !ok || c <= 0 {
		return measure{}, false
	}
	x := m.measure(count, depth+1)
	if _, constCount := m.intConst(count); constCount && !x.known() {
		return measure{}, false
	}
	if !x.known() {
		if isDur {
			return measure{per: 1, dur: true, base: e}, true // time.Duration(n) * time.Second
		}
		return measure{}, false
	}
	if x.unix {
		return measure{}, false
	}
	if isDur && isDuration(m.info.TypeOf(unit)) && x.per != 1 && x.per != c && isTimeUnit(c) {
		// A count of x.per multiplied by another time unit.
		return measure{per: 1, dur: true, mix: &mixup{expr: e, count: count, unit: unit, per: x.per, by: c}}, true
	}
	if x.per%c != 0 {
		return measure{}, false
	}
	x.per /= c
	x.dur = isDur
	if x.per == 1 && isDur {
		x.base = e
	}
	return x, true
}

func (m *measurer) objectOf(e ast.Expr) types.Object {
	switch e := e.(type) {
	case *ast.Ident:
		return m.info.Uses[e]
	case *ast.SelectorExpr:
		return m.info.Uses[e.Sel]
	}
	return nil
}

func (m *measurer) intConst(e ast.Expr) (int64, bool) {
	tv, ok := m.info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// bareConstant reports whether e is a constant that mentions no time
// unit: 10, ttlSeconds (const ttlSeconds = 10), time.Duration(30). Its
// value in nanoseconds is returned.
func (m *measurer) bareConstant(e ast.Expr) (int64, bool) {
	v, ok := m.intConst(e)
	if !ok {
		return 0, false
	}
	return v, !m.mentionsUnit(e, 0)
}

// mentionsUnit reports whether e refers to a time unit, a typed
// time.Duration constant, or a constant it cannot see into.
func (m *measurer) mentionsUnit(e ast.Expr, depth int) bool {
	if depth > 8 {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		var obj types.Object
		switch n := n.(type) {
		case *ast.SelectorExpr:
			obj = m.info.Uses[n.Sel]
		case *ast.Ident:
			obj = m.info.Uses[n]
		default:
			return true
		}
		c, ok := obj.(*types.Const)
		if !ok {
			return true
		}
		if c.Pkg() != nil && c.Pkg().Path() == "time" {
			found = true
			return false
		}
		if def := m.consts[c]; def != nil {
			found = m.mentionsUnit(def, depth+1)
			return false
		}
		// Declared in another package: only an untyped constant is
		// certainly a bare number.
		if b, ok := c.Type().(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
			found = true
		}
		return false
	})
	return found
}

var durationMethods = map[string]int64{
	"Nanoseconds": 1, "Microseconds": 1e3, "Milliseconds": 1e6,
	"Seconds": 1e9, "Minutes": 60e9, "Hours": 3600e9,
}

var unixMethods = map[string]int64{
	"UnixNano": 1, "UnixMicro": 1e3, "UnixMilli": 1e6, "Unix": 1e9,
}

func isTimeUnit(c int64) bool {
	switch c {
	case 1, 1e3, 1e6, 1e9, 60e9, 3600e9:
		return true
	}
	return false
}

// unitOfName returns the unit a name ends in: ttlSeconds, lock_ttl_sec,
// timeoutMs, expireMillis. Only unambiguous words count.
func unitOfName(name string) int64 {
	words := splitWords(name)
	if len(words) < 2 {
		return 0 // "ms" or "seconds" alone says too little about the value
	}
	switch words[len(words)-1] {
	case "ms", "msec", "msecs", "millis", "millisecond", "milliseconds":
		return 1e6
	case "sec", "secs", "second", "seconds":
		return 1e9
	case "ns", "nanos", "nanosecond", "nanoseconds":
		return 1
	case "mins", "minute", "minutes":
		return 60e9
	}
	return 0
}

// splitWords splits camelCase and snake_case names into lower-case words.
func splitWords(name string) []string {
	var words []string
	var cur []rune
	rs := []rune(name)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r):
			prevLower := i > 0 && unicode.IsLower(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			prevUpper := i > 0 && unicode.IsUpper(rs[i-1])
			if prevLower || prevUpper && nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

func isDuration(t types.Type) bool { return isNamed(t, "time", "Duration") }
func isTime(t types.Type) bool     { return isNamed(t, "time", "Time") }

func isNamed(t types.Type, pkg, name string) bool {
	if t == nil {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func isNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0 && b.Info()&types.IsComplex == 0
}
