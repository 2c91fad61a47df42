// Package fixes builds the text edits of locklint's suggested fixes: whole
// line deletions (so no neighbouring comment goes with them), source text
// of expressions, and adding an import.
//
// Drivers gofmt the result and drop imports left unused, so edits only need
// to produce code that compiles.
package fixes

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Source returns the source text of n, or "" if it cannot be read.
func Source(pass *analysis.Pass, n ast.Node) string {
	src := fileBytes(pass, n.Pos())
	tf := pass.Fset.File(n.Pos())
	if src == nil || tf == nil {
		return ""
	}
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return string(src[start:end])
}

// last caches the most recently read file: a rule building fixes reads
// the same file several times in a row.
var last struct {
	sync.Mutex
	pass *analysis.Pass
	name string
	src  []byte
}

func fileBytes(pass *analysis.Pass, pos token.Pos) []byte {
	tf := pass.Fset.File(pos)
	if tf == nil || pass.ReadFile == nil {
		return nil
	}
	last.Lock()
	defer last.Unlock()
	if last.pass == pass && last.name == tf.Name() {
		return last.src
	}
	src, err := pass.ReadFile(tf.Name())
	if err != nil || len(src) != tf.Size() {
		return nil // the file changed since it was parsed
	}
	last.pass, last.name, last.src = pass, tf.Name(), src
	return src
}

// DeleteLines deletes the lines n occupies, from the start of its first
// line through the newline of its last. It fails (ok false) when anything
// but blanks shares those lines with n, or when n ends in a trailing
// comment on the same line, which then goes too.
func DeleteLines(pass *analysis.Pass, n ast.Node) (analysis.TextEdit, bool) {
	src := fileBytes(pass, n.Pos())
	tf := pass.Fset.File(n.Pos())
	if src == nil {
		return analysis.TextEdit{}, false
	}
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	lineStart := start
	for lineStart > 0 && src[lineStart-1] != '\n' {
		lineStart--
	}
	if len(bytes.TrimSpace(src[lineStart:start])) != 0 {
		return analysis.TextEdit{}, false
	}
	lineEnd := end
	for lineEnd < len(src) && src[lineEnd] != '\n' {
		lineEnd++
	}
	rest := bytes.TrimSpace(src[end:lineEnd])
	if len(rest) != 0 && !bytes.HasPrefix(rest, []byte("//")) {
		return analysis.TextEdit{}, false
	}
	if lineEnd < len(src) {
		lineEnd++
	}
	return analysis.TextEdit{Pos: tf.Pos(lineStart), End: tf.Pos(lineEnd)}, true
}

// File returns the file of pass that contains pos.
func File(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// Import returns the name under which code at pos in file can refer to
// the package at path, adding an import when needed. It fails when the
// name is shadowed or taken at pos.
func Import(pass *analysis.Pass, file *ast.File, pos token.Pos, path, name string) (local string, edits []analysis.TextEdit, ok bool) {
	scope := innermost(pass, file, pos)
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			local := name
			if imp.Name != nil {
				local = imp.Name.Name
			}
			if local == "_" || local == "." {
				return "", nil, false
			}
			if scope != nil {
				if _, obj := scope.LookupParent(local, pos); obj == nil || obj.Pos() != imp.Pos() && !isPkgName(obj) {
					return "", nil, false
				}
			}
			return local, nil, true
		}
	}
	if scope == nil {
		return "", nil, false
	}
	if _, obj := scope.LookupParent(name, pos); obj != nil {
		return "", nil, false
	}
	spec := strconv.Quote(path)
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() {
			return name, []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t" + spec + "\n")}}, true
		}
		// import "x"  ->  import ( "x"; "path" )
		return name, []analysis.TextEdit{
			{Pos: gd.Specs[0].Pos(), End: gd.Specs[0].Pos(), NewText: []byte("(\n\t")},
			{Pos: gd.End(), End: gd.End(), NewText: []byte("\n\t" + spec + "\n)")},
		}, true
	}
	return name, []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + spec)}}, true
}

func innermost(pass *analysis.Pass, file *ast.File, pos token.Pos) *types.Scope {
	fileScope := pass.TypesInfo.Scopes[file]
	if fileScope == nil {
		return nil
	}
	return fileScope.Innermost(pos)
}

func isPkgName(obj types.Object) bool {
	_, ok := obj.(*types.PkgName)
	return ok
}

// Visible returns the object name resolves to at pos, or nil.
func Visible(pass *analysis.Pass, pos token.Pos, name string) types.Object {
	file := File(pass, pos)
	if file == nil {
		return nil
	}
	scope := innermost(pass, file, pos)
	if scope == nil {
		return nil
	}
	_, obj := scope.LookupParent(name, pos)
	return obj
}

// ImmediateScripter reports whether recv, the receiver of a call into the
// go-redis package clientPkg, can be passed as that package's Scripter to a
// safelock function: clients yes; pipelines and transactions no, because
// their commands run later, at Exec.
func ImmediateScripter(pass *analysis.Pass, recv ast.Expr, clientPkg *types.Package) bool {
	t := pass.TypesInfo.TypeOf(recv)
	if t == nil || clientPkg == nil {
		return false
	}
	if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Exec"); obj != nil {
		return false // Pipeliner, Pipeline, TxPipeline
	}
	named := t
	if p, ok := t.(*types.Pointer); ok {
		named = p.Elem()
	}
	if n, ok := types.Unalias(named).(*types.Named); ok {
		switch n.Obj().Name() {
		case "Pipeliner", "Pipeline", "Tx":
			return false
		}
	}
	obj := clientPkg.Scope().Lookup("Scripter")
	if obj == nil {
		return false
	}
	iface, ok := obj.Type().Underlying().(*types.Interface)
	return ok && types.Implements(t, iface)
}
