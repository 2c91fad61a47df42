package redismodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// spreadElems returns the elements of a local slice passed as args... when
// the function builds it only from a literal and appends before the call:
//
//	args := []interface{}{key, value}
//	if ttl > 0 {
//		args = append(args, "EX", ttl)
//	}
//	args = append(args, "NX")
//	conn.Do("SET", args...)
//
// An option word appended under a condition (NX only sometimes) cannot be
// told: ok is false then, as for any other use of the slice.
func (p *parser) spreadElems(e ast.Expr, call *ast.CallExpr) (elems []ast.Expr, ok bool) {
	id, isID := ast.Unparen(e).(*ast.Ident)
	if !isID {
		return nil, false
	}
	v, _ := p.info.Uses[id].(*types.Var)
	if v == nil || v.Pkg() != p.pass.Pkg || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil, false
	}
	body := p.enclosingBody(v.Pos())
	if body == nil {
		return nil, false
	}
	top := map[ast.Stmt]bool{}
	for _, s := range body.List {
		top[s] = true
	}
	var lit *ast.CompositeLit
	ok = true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 || !p.uses(n.Lhs[0], v) && !p.defines(n.Lhs[0], v) {
				return true
			}
			if n.Pos() > call.Pos() {
				ok = false
				return false
			}
			switch rhs := ast.Unparen(n.Rhs[0]).(type) {
			case *ast.CompositeLit:
				if lit != nil || n.Tok != token.DEFINE {
					ok = false
					return false
				}
				lit = rhs
				elems = append(elems, rhs.Elts...)
			case *ast.CallExpr:
				if !p.isAppendTo(rhs, v) || lit == nil {
					ok = false
					return false
				}
				added := rhs.Args[1:]
				if !top[n] {
					for _, a := range added {
						if w, isWord := constString(p.info, a); isWord && optionWord(w) && !ttlWord(w) {
							ok = false // NX appended only sometimes
							return false
						}
					}
				}
				elems = append(elems, added...)
			default:
				ok = false
			}
			return false
		case *ast.Ident:
			if p.info.Uses[n] == v && n != id && !p.inAppend(body, n) {
				ok = false // read or changed some other way
			}
		}
		return true
	})
	return elems, ok && lit != nil
}

func optionWord(w string) bool {
	switch strings.ToUpper(w) {
	case "NX", "XX", "GET", "KEEPTTL", "IFEQ", "IFNE", "EX", "PX", "EXAT", "PXAT":
		return true
	}
	return false
}

func ttlWord(w string) bool {
	switch strings.ToUpper(w) {
	case "EX", "PX", "EXAT", "PXAT":
		return true
	}
	return false
}

// isAppendTo reports whether call is append(v, x, y) without a spread.
func (p *parser) isAppendTo(call *ast.CallExpr, v *types.Var) bool {
	fn, isID := ast.Unparen(call.Fun).(*ast.Ident)
	if !isID || fn.Name != "append" || call.Ellipsis.IsValid() || len(call.Args) < 2 {
		return false
	}
	if _, builtin := p.info.Uses[fn].(*types.Builtin); !builtin {
		return false
	}
	return p.uses(call.Args[0], v)
}

// inAppend reports whether id is the first argument of an append whose
// result is assigned back to the same variable (handled by the caller).
func (p *parser) inAppend(body *ast.BlockStmt, id *ast.Ident) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		if as, isAssign := n.(*ast.AssignStmt); isAssign && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
			if call, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); isCall && len(call.Args) > 0 && call.Args[0] == id {
				found = true
			}
			if as.Lhs[0] == id {
				found = true
			}
		}
		return true
	})
	return found
}

// defines reports whether e declares v (v := ...).
func (p *parser) defines(e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && p.info.Defs[id] == v
}

// enclosingBody returns the body of the declared function containing pos.
func (p *parser) enclosingBody(pos token.Pos) *ast.BlockStmt {
	for _, f := range p.pass.Files {
		if pos < f.FileStart || pos >= f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Pos() <= pos && pos < fd.End() {
				return fd.Body
			}
		}
	}
	return nil
}
