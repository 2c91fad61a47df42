package lockvalue

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// defaulted traces a struct field read as x.F that the caller may set
// (an exported field, a field of a parameter) through the default the
// package gives it when it is left unset, before the read: in the same
// function (if cfg.InstanceID == "" { cfg.InstanceID, _ = os.Hostname() })
// or in a method called on the same variable first (cfg.setDefaults()
// with if c.InstanceID == "" { c.InstanceID = "auto-bp:" + host }). The
// value is then that default for everyone who configures nothing, and
// when every default assignment is weak the value is reported where the
// first is made. A default from another package (a config package's
// envOrDefault) is not read.
func (t *tracer) defaulted(sel *ast.SelectorExpr, f *types.Var, c ctx) (val, bool) {
	if c.fd == nil || c.fd.Body == nil {
		return val{}, false
	}
	base := types.ExprString(sel.X)
	type alt struct {
		a  assign
		fd *ast.FuncDecl
	}
	var alts []alt
	collect := func(fd *ast.FuncDecl, recv string, body ast.Node) {
		ast.Inspect(body, func(n ast.Node) bool {
			ifs, ok := n.(*ast.IfStmt)
			if !ok || !t.unsetTest(ifs.Cond, recv, f) {
				return true
			}
			ast.Inspect(ifs.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN {
					return true
				}
				for i, lhs := range as.Lhs {
					if !t.isField(lhs, recv, f) {
						continue
					}
					switch {
					case len(as.Rhs) == len(as.Lhs):
						alts = append(alts, alt{assign{rhs: as.Rhs[i], idx: -1}, fd})
					case len(as.Rhs) == 1:
						alts = append(alts, alt{assign{rhs: as.Rhs[0], idx: i}, fd})
					}
				}
				return true
			})
			return false
		})
	}
	ast.Inspect(c.fd.Body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= sel.Pos() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if n.End() <= sel.Pos() && t.unsetTest(n.Cond, base, f) {
				collect(c.fd, base, &ast.BlockStmt{List: []ast.Stmt{n}})
				return false
			}
		case *ast.ExprStmt:
			call, ok := n.X.(*ast.CallExpr)
			if !ok {
				return true
			}
			m, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || types.ExprString(m.X) != base {
				return true
			}
			fn, _ := t.info.Uses[m.Sel].(*types.Func)
			md := t.declOf[fn]
			if md == nil || md.Recv == nil || len(md.Recv.List) != 1 || len(md.Recv.List[0].Names) != 1 {
				return true
			}
			if _, ptr := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer); !ptr {
				return true // sets the defaults on a copy
			}
			collect(md, md.Recv.List[0].Names[0].Name, md.Body)
		}
		return true
	})
	if len(alts) == 0 {
		return val{}, false
	}
	var first val
	for i, a := range alts {
		inner := ctx{fd: a.fd, depth: c.depth}
		var w val
		if a.a.idx >= 0 {
			call, ok := ast.Unparen(a.a.rhs).(*ast.CallExpr)
			if !ok {
				return val{}, false
			}
			w = t.call(call, a.a.idx, inner)
		} else {
			w = t.eval(a.a.rhs, inner)
		}
		if !w.k.weak() {
			return val{}, false
		}
		if i == 0 {
			first = w
			if first.at == nil {
				first.at = t.madeAt(a.fd, a.a.rhs)
			}
		}
	}
	first.unset = base + "." + f.Name() + " is not set"
	return first, true
}

// unsetTest reports whether cond tests that field f of the variable
// rendered recv holds its zero value (recv.F == "", len(recv.F) == 0,
// recv.F == 0).
func (t *tracer) unsetTest(cond ast.Expr, recv string, f *types.Var) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	if t.isZero(x) {
		x, y = y, x
	}
	if !t.isZero(y) {
		return false
	}
	if call, ok := x.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "len" && t.info.Uses[id] == types.Universe.Lookup("len") {
			x = ast.Unparen(call.Args[0])
		}
	}
	return t.isField(x, recv, f)
}

func (t *tracer) isZero(e ast.Expr) bool {
	tv, ok := t.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	s := tv.Value.ExactString()
	return s == `""` || s == "0"
}

// isField reports whether e is field f of the variable rendered recv.
func (t *tracer) isField(e ast.Expr, recv string, f *types.Var) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || types.ExprString(sel.X) != recv {
		return false
	}
	s := t.info.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal && s.Obj() == f
}

// flagDefault traces *p where p holds a command-line flag
// (p := flag.String("node-id", "broker-1", "...")), also of a FlagSet or
// of spf13/pflag (StringP with its shorthand): everyone who does not pass
// the flag runs with its default, which is traced like any value and,
// when weak, reported at the flag's definition.
func (t *tracer) flagDefault(e *ast.StarExpr, c ctx) (val, bool) {
	id, ok := ast.Unparen(e.X).(*ast.Ident)
	if !ok {
		return val{}, false
	}
	v, _ := t.info.Uses[id].(*types.Var)
	if v == nil {
		return val{}, false
	}
	var as []assign
	fd := c.fd
	if t.global(v) {
		if t.tainted[v] {
			return val{}, false
		}
		as = t.vars[v]
		if len(as) == 1 {
			fd = as[0].fd
		}
	} else {
		as = t.localsOf(c.fd)[v]
	}
	if len(as) != 1 || as[0].idx != -1 {
		return val{}, false
	}
	call, ok := ast.Unparen(as[0].rhs).(*ast.CallExpr)
	if !ok {
		return val{}, false
	}
	fn, _ := typeutil.Callee(t.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return val{}, false
	}
	switch fn.Pkg().Path() {
	case "flag", "github.com/spf13/pflag":
	default:
		return val{}, false
	}
	def := 1 // String(name, value, usage)
	if strings.HasSuffix(fn.Name(), "P") {
		def = 2 // StringP(name, shorthand, value, usage)
	}
	if len(call.Args) <= def {
		return val{}, false
	}
	name, ok := t.info.Types[call.Args[0]]
	if !ok || name.Value == nil || name.Value.Kind() != constant.String {
		return val{}, false
	}
	w := t.eval(call.Args[def], ctx{fd: fd, depth: c.depth})
	if !w.k.weak() {
		return val{}, false
	}
	w.at = call
	w.unset = "flag -" + constant.StringVal(name.Value) + " is not given"
	return w, true
}
