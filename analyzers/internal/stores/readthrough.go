package stores

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// readThrough reports whether set, a SET with a TTL, fills a read-through
// cache: the same function first GETs the same key and returns what it
// read (decoded or not) when the key was there,
//
//	if b, err := rdb.Get(ctx, k).Bytes(); err == nil {
//		if json.Unmarshal(b, &v) == nil { return v }
//	}
//	v := loadFromDB()
//	rdb.Set(ctx, k, encode(v), 2*time.Minute)
//
// A GET that only decides (a reservation refused when the key exists)
// returns no value it read, and the SET stays a write.
func readThrough(info *types.Info, set *redismodel.Command) bool {
	fd := set.In.Decl
	if fd == nil || fd.Body == nil || set.Key() == nil {
		return false
	}
	key := types.ExprString(ast.Unparen(set.Key()))
	read := map[types.Object]bool{} // variables holding what the GET read
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() > set.Call.Pos() || len(as.Rhs) != 1 || !mentionsGet(info, as.Rhs[0], key) {
			return true
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" && id.Name != "err" {
				if obj := info.ObjectOf(id); obj != nil {
					read[obj] = true
				}
			}
		}
		return true
	})
	if len(read) == 0 {
		return false
	}
	// Decoding into &v makes v what was read too: json.Unmarshal(b, &v).
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() > set.Call.Pos() || !anyMentions(info, call.Args, read) {
			return true
		}
		for _, a := range call.Args {
			if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if id, ok := ast.Unparen(u.X).(*ast.Ident); ok {
					if obj := info.ObjectOf(id); obj != nil {
						read[obj] = true
					}
				}
			}
		}
		return true
	})
	returned := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if n.Pos() < set.Call.Pos() && anyMentions(info, n.Results, read) {
				returned = true
			}
		}
		return !returned
	})
	return returned
}

// mentionsGet reports whether e calls a client's Get (GetCtx, a redigo
// Do("GET", ...)) of the key rendered as key.
func mentionsGet(info *types.Info, e ast.Expr, key string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil || !redismodel.IsClientPackage(fn.Pkg().Path()) {
			return true
		}
		args := call.Args
		if len(args) > 0 && isContextType(info.TypeOf(args[0])) {
			args = args[1:]
		}
		switch name := strings.TrimSuffix(fn.Name(), "Ctx"); {
		case name == "Get" && len(args) > 0:
			found = types.ExprString(ast.Unparen(args[0])) == key
		case name == "Do" && len(args) > 1:
			if tv, ok := info.Types[args[0]]; ok && tv.Value != nil && strings.EqualFold(strings.Trim(tv.Value.ExactString(), `"`), "GET") {
				found = types.ExprString(ast.Unparen(args[1])) == key
			}
		}
		return !found
	})
	return found
}

// anyMentions reports whether one of es uses a variable of vars.
func anyMentions(info *types.Info, es []ast.Expr, vars map[types.Object]bool) bool {
	found := false
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && vars[info.Uses[id]] {
				found = true
			}
			return !found
		})
	}
	return found
}
