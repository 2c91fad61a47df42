package section

import (
	"go/ast"
	"go/constant"
	"go/types"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// Flow tracks which variables of a function hold a value derived from
// seed calls (a fencing token, say): assigned from an expression that
// mentions a seed or such a variable, directly or through composite
// literals, conversions, appends, fmt calls, string builders and fields.
// It is flow-insensitive: a variable that is ever assigned a derived
// value counts as derived everywhere.
type Flow struct {
	info *types.Info
	seed func(*ast.CallExpr) bool
	vars map[types.Object]bool
}

// NewFlow computes the derived variables of root (a function).
func NewFlow(info *types.Info, root ast.Node, seed func(*ast.CallExpr) bool) *Flow {
	return newFlow(info, root, seed, nil)
}

// NewFlowFrom computes the variables of root derived from the given
// variables (a function's parameters, say).
func NewFlowFrom(info *types.Info, root ast.Node, vars ...types.Object) *Flow {
	return newFlow(info, root, func(*ast.CallExpr) bool { return false }, vars)
}

// NewFlowSeeded computes the variables of root derived from seed calls
// or from the given variables.
func NewFlowSeeded(info *types.Info, root ast.Node, seed func(*ast.CallExpr) bool, vars ...types.Object) *Flow {
	return newFlow(info, root, seed, vars)
}

func newFlow(info *types.Info, root ast.Node, seed func(*ast.CallExpr) bool, vars []types.Object) *Flow {
	f := &Flow{info: info, seed: seed, vars: map[types.Object]bool{}}
	for _, v := range vars {
		f.vars[v] = true
	}
	for changed := true; changed; {
		changed = false
		mark := func(e ast.Expr) {
			if obj := rootVar(info, e); obj != nil && !f.vars[obj] {
				f.vars[obj] = true
				changed = true
			}
		}
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, rhs := range n.Rhs {
						if f.Reaches(rhs) {
							mark(n.Lhs[i])
						}
					}
				} else if len(n.Rhs) == 1 && f.Reaches(n.Rhs[0]) {
					for _, l := range n.Lhs {
						mark(l)
					}
				}
			case *ast.ValueSpec:
				for i, v := range n.Values {
					if !f.Reaches(v) {
						continue
					}
					if len(n.Values) == len(n.Names) {
						mark(n.Names[i])
					} else {
						for _, id := range n.Names {
							mark(id)
						}
					}
				}
			case *ast.RangeStmt:
				if f.Reaches(n.X) {
					mark(n.Key)
					mark(n.Value)
				}
			case *ast.CallExpr:
				f.builderCall(n, mark)
			}
			return true
		})
	}
	return f
}

// builderCall marks the receiver of a value-building method (strings.Builder,
// bytes.Buffer, url.Values, http.Header) and the writer of fmt.Fprint* when
// a derived value goes in.
func (f *Flow) builderCall(call *ast.CallExpr, mark func(ast.Expr)) {
	derived := false
	for _, a := range call.Args {
		if f.Reaches(a) {
			derived = true
		}
	}
	if !derived {
		return
	}
	fn, _ := typeutil.Callee(f.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	switch fn.Pkg().Path() {
	case "strings", "bytes", "net/url", "net/http":
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Type().(*types.Signature).Recv() != nil {
			mark(sel.X)
		}
	case "fmt":
		if len(call.Args) > 0 && len(fn.Name()) > 6 && fn.Name()[:6] == "Fprint" {
			mark(call.Args[0])
		}
	}
}

// Reaches reports whether e mentions a seed call or a derived variable.
func (f *Flow) Reaches(e ast.Expr) bool {
	if e == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if f.seed(n) {
				found = true
			}
		case *ast.Ident:
			if obj := f.info.Uses[n]; obj != nil && f.vars[obj] {
				found = true
			}
		}
		return !found
	})
	return found
}

// rootVar returns the variable at the root of x, x.f, x[i], *x, &x.
func rootVar(info *types.Info, e ast.Expr) types.Object {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if x.Name == "_" {
				return nil
			}
			if v, ok := info.ObjectOf(x).(*types.Var); ok {
				return v
			}
			return nil
		case *ast.SelectorExpr:
			if _, isPkg := info.Uses[identOf(x.X)].(*types.PkgName); isPkg {
				return info.Uses[x.Sel]
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			e = x.X
		default:
			return nil
		}
	}
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// Resolve follows variables assigned exactly once (locals and package
// variables) and &x to the expression that made the value of e.
func Resolve(info *types.Info, defs *keyexpr.Defs, e ast.Expr) ast.Expr {
	return ResolveFields(info, defs, nil, e)
}

// ResolveFields is Resolve that also sees through struct fields stored
// exactly once in the package.
func ResolveFields(info *types.Info, defs *keyexpr.Defs, fields *Fields, e ast.Expr) ast.Expr {
	for range 6 {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			s := info.Selections[x]
			if s == nil || s.Kind() != types.FieldVal || fields == nil {
				return x
			}
			def := fields.Single(s.Obj().(*types.Var))
			if def == nil {
				return x
			}
			e = def
			continue
		case *ast.UnaryExpr:
			if x.Op.String() != "&" {
				return x
			}
			e = x.X
			continue
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			if !ok || defs == nil {
				return x
			}
			def := defs.Single(v)
			if def == nil {
				return x
			}
			e = def
			continue
		}
		return ast.Unparen(e)
	}
	return ast.Unparen(e)
}

// Duration evaluates a TTL or timeout expression that is a constant
// (directly, or through variables assigned once) in the given unit.
func Duration(info *types.Info, defs *keyexpr.Defs, e ast.Expr, unit redismodel.Unit) (time.Duration, bool) {
	if e == nil {
		return 0, false
	}
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		r := Resolve(info, defs, e)
		if tv, ok = info.Types[r]; !ok || tv.Value == nil {
			return 0, false
		}
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(v)
	if !exact || n <= 0 {
		return 0, false
	}
	switch unit {
	case redismodel.UnitDuration:
		return time.Duration(n), true
	case redismodel.UnitSeconds:
		return time.Duration(n) * time.Second, true
	case redismodel.UnitMillis:
		return time.Duration(n) * time.Millisecond, true
	}
	return 0, false
}
