package redismodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/luascript"
)

// ScriptValue is the Lua text behind a package-level variable: a string
// holding Lua, or a NewScript/NewLuaScript value. KeyCount is redigo's
// key count (-1 when not given).
type ScriptValue struct {
	Text     string
	KeyCount int
}

// parser holds per-package state shared by the client files.
type parser struct {
	pass    *analysis.Pass
	info    *types.Info
	defs    *keyexpr.Defs
	inits   map[*types.Var]ast.Expr // package-level var initializers
	embeds  map[*types.Var]string   // //go:embed file contents
	scripts map[string]*luascript.Script
	fields  map[*types.Var][]ast.Expr // struct field -> every value assigned to it
	fsDirs  map[*types.Var]string     // embed.FS variable -> package directory
	// imported looks up Lua text behind a variable of another package
	// (from an analysis fact). May be nil.
	imported func(*types.Var) (ScriptValue, bool)
	raw      map[*types.Func]bool // the package's raw command wrappers (rawWrappers)
	// clients are this package's interfaces marked as go-redis clients;
	// importedClient looks up another package's (from a fact). May be nil.
	clients        map[*types.TypeName]bool
	importedClient func(*types.TypeName) bool
	// importedRaw says whether another package's function is a raw
	// command wrapper (from a fact). May be nil.
	importedRaw func(*types.Func) bool
}

func newParser(pass *analysis.Pass, defs *keyexpr.Defs, imported func(*types.Var) (ScriptValue, bool)) *parser {
	p := &parser{
		pass: pass, info: pass.TypesInfo, defs: defs, imported: imported,
		inits:   map[*types.Var]ast.Expr{},
		embeds:  map[*types.Var]string{},
		scripts: map[string]*luascript.Script{},
		fields:  map[*types.Var][]ast.Expr{},
		fsDirs:  map[*types.Var]string{},
	}
	p.collectFields()
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					v, _ := p.info.Defs[name].(*types.Var)
					if v == nil {
						continue
					}
					if len(vs.Values) == len(vs.Names) {
						p.inits[v] = vs.Values[i]
					}
					doc := vs.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					if isEmbedFS(v.Type()) && hasEmbed(doc) {
						p.fsDirs[v] = filepath.Dir(pass.Fset.File(f.FileStart).Name())
					} else if text, ok := p.readEmbed(f, doc); ok {
						p.embeds[v] = text
					}
				}
			}
		}
	}
	return p
}

// collectFields records the values assigned to struct fields anywhere in
// the package (composite literals and assignments), so a script kept in a
// field set once, in a constructor, can still be read.
func (p *parser) collectFields() {
	fieldOf := func(e ast.Expr) *types.Var {
		switch e := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if sel := p.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
				v, _ := sel.Obj().(*types.Var)
				return v
			}
		case *ast.Ident: // key of a composite literal
			v, _ := p.info.Uses[e].(*types.Var)
			if v != nil && v.IsField() {
				return v
			}
		}
		return nil
	}
	for _, f := range p.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				for _, elt := range n.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if v := fieldOf(kv.Key); v != nil {
							p.fields[v] = append(p.fields[v], kv.Value)
						}
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if v := fieldOf(lhs); v != nil {
						if len(n.Lhs) == len(n.Rhs) {
							p.fields[v] = append(p.fields[v], n.Rhs[i])
						} else {
							p.fields[v] = append(p.fields[v], nil, nil) // unknown
						}
					}
				}
			}
			return true
		})
	}
}

// fieldValue returns the one value ever assigned to the field e selects.
func (p *parser) fieldValue(e ast.Expr) ast.Expr {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := p.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	if vals := p.fields[v]; len(vals) == 1 {
		return vals[0]
	}
	return nil
}

func isEmbedFS(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "embed" && n.Obj().Name() == "FS"
}

func hasEmbed(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, "//go:embed ") {
			return true
		}
	}
	return false
}

// readFS reads name from the directory of an embed.FS variable.
func (p *parser) readFS(dir, name string) (string, bool) {
	if name == "" || strings.Contains(name, "..") || filepath.IsAbs(name) {
		return "", false
	}
	return p.readLimited(filepath.Join(dir, filepath.FromSlash(name)))
}

// readLimited reads a file of at most 1 MiB, through pass.ReadFile when
// the driver serves it.
func (p *parser) readLimited(name string) (string, bool) {
	if p.pass.ReadFile != nil {
		if data, err := p.pass.ReadFile(name); err == nil {
			return string(data), true
		}
	}
	st, err := os.Stat(name)
	if err != nil || st.Size() > 1<<20 {
		return "", false
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return "", false
	}
	return string(data), true
}

// readEmbed reads the file named by a //go:embed directive with a single
// plain file name. pass.ReadFile only serves Go and "other" files, so
// embedded files are read from the package directory directly.
func (p *parser) readEmbed(f *ast.File, doc *ast.CommentGroup) (string, bool) {
	if doc == nil {
		return "", false
	}
	for _, c := range doc.List {
		pattern, ok := strings.CutPrefix(c.Text, "//go:embed ")
		if !ok {
			continue
		}
		pattern = strings.Trim(strings.TrimSpace(pattern), "`\"")
		if pattern == "" || strings.ContainsAny(pattern, "*?[ ") || strings.Contains(pattern, "..") {
			return "", false
		}
		dir := filepath.Dir(p.pass.Fset.File(f.FileStart).Name())
		return p.readLimited(filepath.Join(dir, filepath.FromSlash(pattern)))
	}
	return "", false
}

// parse returns the analysis of Lua text, cached.
func (p *parser) parse(text string) *luascript.Script {
	s, ok := p.scripts[text]
	if !ok {
		s = luascript.Parse(text)
		p.scripts[text] = s
	}
	return s
}

// scriptOf analyses the Lua text behind a string expression, or nil.
func (p *parser) scriptOf(e ast.Expr) *luascript.Script {
	if text, ok := p.stringOf(e, 0); ok {
		return p.parse(text)
	}
	return nil
}

// stringOf finds the string value of e: a constant, a concatenation, a
// package variable's initializer or embedded file, a local assigned once.
func (p *parser) stringOf(e ast.Expr, depth int) (string, bool) {
	if e == nil || depth > 6 {
		return "", false
	}
	e = ast.Unparen(e)
	if s, ok := constString(p.info, e); ok {
		return s, true
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := p.stringOf(e.X, depth+1)
		b, ok2 := p.stringOf(e.Y, depth+1)
		return a + b, ok1 && ok2
	case *ast.CallExpr:
		// string(embeddedBytes)
		if tv, ok := p.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return p.stringOf(e.Args[0], depth+1)
		}
		return p.fsRead(e)
	case *ast.Ident, *ast.SelectorExpr:
		if val := p.fieldValue(e); val != nil {
			return p.stringOf(val, depth+1)
		}
		v := p.varOf(e)
		if v == nil {
			return "", false
		}
		if text, ok := p.embeds[v]; ok {
			return text, true
		}
		if init := p.inits[v]; init != nil {
			return p.stringOf(init, depth+1)
		}
		if def := p.defs.Single(v); def != nil {
			return p.stringOf(def, depth+1)
		}
		// src, err := luaFS.ReadFile("unlock.lua")
		if call, i := p.defs.Tuple(v); call != nil && i == 0 {
			return p.fsRead(call)
		}
		if p.imported != nil && v.Pkg() != p.pass.Pkg {
			if sv, ok := p.imported(v); ok {
				return sv.Text, true
			}
		}
	}
	return "", false
}

// fsRead reads fs.ReadFile("name") on an embedded file system.
func (p *parser) fsRead(call *ast.CallExpr) (string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "ReadFile" || len(call.Args) != 1 {
		return "", false
	}
	v := p.varOf(sel.X)
	dir, ok := p.fsDirs[v]
	if !ok {
		return "", false
	}
	name, ok := constString(p.info, call.Args[0])
	if !ok {
		return "", false
	}
	return p.readFS(dir, name)
}

func (p *parser) varOf(e ast.Expr) *types.Var {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		if _, isField := p.info.Selections[e]; isField {
			return nil
		}
		id = e.Sel
	default:
		return nil
	}
	v, _ := p.info.Uses[id].(*types.Var)
	return v
}

// scriptObject finds the NewScript/NewLuaScript call behind e and returns
// its Lua text and redigo key count (-1 if none).
func (p *parser) scriptObject(e ast.Expr, depth int) (ScriptValue, bool) {
	if e == nil || depth > 6 {
		return ScriptValue{}, false
	}
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(p.info, e).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			return ScriptValue{}, false
		}
		switch {
		case (isGoRedis(fn.Pkg().Path()) || isGoZero(fn.Pkg().Path())) && fn.Name() == "NewScript" && len(e.Args) == 1:
			text, ok := p.stringOf(e.Args[0], 0)
			return ScriptValue{Text: text, KeyCount: -1}, ok
		case (isRedigo(fn.Pkg().Path()) && fn.Name() == "NewScript" || isRadix(fn.Pkg().Path()) && fn.Name() == "NewEvalScript") && len(e.Args) == 2:
			// redigo NewScript(keyCount, src), radix v3 NewEvalScript(numKeys, src)
			text, ok := p.stringOf(e.Args[1], 0)
			n, nok := constInt(p.info, e.Args[0])
			if !nok {
				n = -1
			}
			return ScriptValue{Text: text, KeyCount: int(n)}, ok
		case isRadix(fn.Pkg().Path()) && fn.Name() == "NewEvalScript" && len(e.Args) == 1:
			// radix v4 NewEvalScript(src)
			text, ok := p.stringOf(e.Args[0], 0)
			return ScriptValue{Text: text, KeyCount: -1}, ok
		case isRueidis(fn.Pkg().Path()) && strings.HasPrefix(fn.Name(), "NewLuaScript") && len(e.Args) >= 1:
			text, ok := p.stringOf(e.Args[0], 0)
			return ScriptValue{Text: text, KeyCount: -1}, ok
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return p.scriptObject(e.X, depth+1)
		}
	case *ast.Ident, *ast.SelectorExpr:
		if val := p.fieldValue(e); val != nil {
			return p.scriptObject(val, depth+1)
		}
		v := p.varOf(e)
		if v == nil {
			return ScriptValue{}, false
		}
		if init := p.inits[v]; init != nil {
			return p.scriptObject(init, depth+1)
		}
		if def := p.defs.Single(v); def != nil {
			return p.scriptObject(def, depth+1)
		}
		if p.imported != nil && v.Pkg() != p.pass.Pkg {
			return p.imported(v)
		}
	}
	return ScriptValue{}, false
}

// evalScript names an EVAL, whose script text is at script, or an
// EVALSHA, whose SHA1 is there, and finds the script behind either.
func (p *parser) evalScript(cmd *Command, sha bool, script ast.Expr) {
	if sha {
		cmd.Name, cmd.Script = "EVALSHA", p.shaScript(script, 0)
		return
	}
	cmd.Name = "EVAL"
	if cmd.Script = p.scriptOf(script); cmd.Script == nil {
		cmd.ScriptSource = script
	}
}

// shaScript finds the script behind the SHA1 an EVALSHA is sent with,
// when the code loaded it itself: sha := script.Hash(), sha, err :=
// script.Load(ctx, c).Result(), sha := c.ScriptLoad(ctx, src).Val()
// (also through a local assigned once or from a tuple, a struct field
// every assignment of which gives the same script, and a loader of the
// package, sha, err := loadScript(ctx, rdb, src), that loads the script
// it is given).
func (p *parser) shaScript(e ast.Expr, depth int) *luascript.Script {
	if e == nil || depth > 6 {
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		sel := p.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal {
			return nil
		}
		v, _ := sel.Obj().(*types.Var)
		var found *luascript.Script
		for _, val := range p.fields[v] {
			s := p.shaScript(val, depth+1)
			if s == nil || found != nil && found != s { // parse caches by text
				return nil
			}
			found = s
		}
		return found
	case *ast.Ident:
		v := p.varOf(e)
		if v == nil {
			return nil
		}
		if def := p.defs.Single(v); def != nil {
			return p.shaScript(def, depth+1)
		}
		if call, i := p.defs.Tuple(v); call != nil && i == 0 {
			return p.shaScript(call, depth+1)
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(p.info, e).(*types.Func)
		if fn != nil && fn.Pkg() == p.pass.Pkg {
			if i := p.loadsParam(fn); i >= 0 && i < len(e.Args) {
				return p.scriptOf(e.Args[i])
			}
			return nil
		}
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if fn == nil || fn.Pkg() == nil || !isGoRedis(fn.Pkg().Path()) {
			return nil
		}
		switch fn.Name() {
		case "Result", "Val": // ...Load(ctx, c).Result()
			return p.shaScript(sel.X, depth+1)
		case "Hash", "Load":
			if sig := fn.Type().(*types.Signature); sig.Recv() != nil && recvNamed(sig) == "Script" {
				if sv, ok := p.scriptObject(sel.X, 0); ok {
					return p.parse(sv.Text)
				}
			}
		case "ScriptLoad":
			args := e.Args
			if len(args) > 0 && isContext(p.info.TypeOf(args[0])) {
				args = args[1:]
			}
			if len(args) == 1 {
				return p.scriptOf(args[0])
			}
		}
	}
	return nil
}

// loadsParam returns the index of the parameter of fn, a function of
// this package returning a string first, that fn loads into Redis as a
// script (redis.NewScript(src).Load(...), c.ScriptLoad(ctx, src)), or -1.
func (p *parser) loadsParam(fn *types.Func) int {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 || !isString(sig.Results().At(0).Type()) {
		return -1
	}
	var fd *ast.FuncDecl
	for _, f := range p.pass.Files {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && p.info.Defs[d.Name] == fn {
				fd = d
			}
		}
	}
	if fd == nil || fd.Body == nil {
		return -1
	}
	param := func(x ast.Expr) int {
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok {
			return -1
		}
		for i := 0; i < sig.Params().Len(); i++ {
			if p.info.Uses[id] == sig.Params().At(i) {
				return i
			}
		}
		return -1
	}
	at := -1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || at >= 0 {
			return at < 0
		}
		callee, _ := typeutil.Callee(p.info, call).(*types.Func)
		if callee == nil || callee.Pkg() == nil || !isGoRedis(callee.Pkg().Path()) {
			return true
		}
		switch {
		case callee.Name() == "NewScript" && len(call.Args) == 1:
			at = param(call.Args[0])
		case callee.Name() == "ScriptLoad" && len(call.Args) == 2:
			at = param(call.Args[1])
		}
		return true
	})
	return at
}

// PackageScripts returns the Lua text behind each package-level variable
// of the package that holds a script (a string with redis.call in it, or
// a NewScript value), for export as facts.
func PackageScripts(pass *analysis.Pass) map[*types.Var]ScriptValue {
	p := newParser(pass, keyexpr.NewDefs(pass.TypesInfo, pass.Files), nil)
	out := map[*types.Var]ScriptValue{}
	for v, init := range p.inits {
		if sv, ok := p.scriptObject(init, 0); ok {
			out[v] = sv
			continue
		}
		if text, ok := p.stringOf(init, 0); ok && strings.Contains(text, "redis.") {
			out[v] = ScriptValue{Text: text, KeyCount: -1}
		}
	}
	for v, text := range p.embeds {
		if strings.Contains(text, "redis.") {
			out[v] = ScriptValue{Text: text, KeyCount: -1}
		}
	}
	return out
}

// scriptSource returns the expression a script object's text comes from
// when scriptObject cannot read it: the argument of NewScript, through
// local variables assigned once (lua := redis.NewScript(src)).
func (p *parser) scriptSource(e ast.Expr, depth int) ast.Expr {
	if e == nil || depth > 6 {
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(p.info, e).(*types.Func)
		if fn != nil && fn.Pkg() != nil && isGoRedis(fn.Pkg().Path()) && fn.Name() == "NewScript" && len(e.Args) == 1 {
			return e.Args[0]
		}
	case *ast.Ident:
		if v := p.varOf(e); v != nil {
			if def := p.defs.Single(v); def != nil {
				return p.scriptSource(def, depth+1)
			}
		}
	}
	return nil
}
