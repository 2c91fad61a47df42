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
	// imported looks up Lua text behind a variable of another package
	// (from an analysis fact). May be nil.
	imported func(*types.Var) (ScriptValue, bool)
}

func newParser(pass *analysis.Pass, defs *keyexpr.Defs, imported func(*types.Var) (ScriptValue, bool)) *parser {
	p := &parser{
		pass: pass, info: pass.TypesInfo, defs: defs, imported: imported,
		inits:   map[*types.Var]ast.Expr{},
		embeds:  map[*types.Var]string{},
		scripts: map[string]*luascript.Script{},
	}
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
					if text, ok := p.readEmbed(f, doc); ok {
						p.embeds[v] = text
					}
				}
			}
		}
	}
	return p
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
		name := filepath.Join(dir, filepath.FromSlash(pattern))
		var data []byte
		var err error
		if p.pass.ReadFile != nil {
			data, err = p.pass.ReadFile(name)
		}
		if p.pass.ReadFile == nil || err != nil {
			st, serr := os.Stat(name)
			if serr != nil || st.Size() > 1<<20 {
				return "", false
			}
			data, err = os.ReadFile(name)
		}
		if err != nil {
			return "", false
		}
		return string(data), true
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
	case *ast.Ident, *ast.SelectorExpr:
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
		if p.imported != nil && v.Pkg() != p.pass.Pkg {
			if sv, ok := p.imported(v); ok {
				return sv.Text, true
			}
		}
	}
	return "", false
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
		case isGoRedis(fn.Pkg().Path()) && fn.Name() == "NewScript" && len(e.Args) == 1:
			text, ok := p.stringOf(e.Args[0], 0)
			return ScriptValue{Text: text, KeyCount: -1}, ok
		case isRedigo(fn.Pkg().Path()) && fn.Name() == "NewScript" && len(e.Args) == 2:
			text, ok := p.stringOf(e.Args[1], 0)
			n, nok := constInt(p.info, e.Args[0])
			if !nok {
				n = -1
			}
			return ScriptValue{Text: text, KeyCount: int(n)}, ok
		case isRueidis(fn.Pkg().Path()) && strings.HasPrefix(fn.Name(), "NewLuaScript") && len(e.Args) >= 1:
			text, ok := p.stringOf(e.Args[0], 0)
			return ScriptValue{Text: text, KeyCount: -1}, ok
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return p.scriptObject(e.X, depth+1)
		}
	case *ast.Ident, *ast.SelectorExpr:
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
