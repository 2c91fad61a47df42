// Package docs turns an analyzer's doc.go into its Analyzer.Doc, so the
// package comment is the only copy of the documentation.
//
// Each analyzer embeds its own doc.go and calls [Extract]:
//
//	//go:embed doc.go
//	var doc string
//
//	var Analyzer = &analysis.Analyzer{Name: "lockexpiry", Doc: docs.Extract(doc, "lockexpiry"), ...}
//
// The package comment must contain a heading "# Analyzer <name>"; the
// first line after it, "<name>: summary", becomes the summary line and
// the rest the details, as go vet and the locklint help print them.
package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the text of the "# Analyzer name" section of the package
// comment in src. It panics when the section is missing: that is a bug in
// the analyzer package, caught by its tests at init.
func Extract(src, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		panic(fmt.Sprintf("docs: parsing doc.go of %s: %v", name, err))
	}
	text := docText(f)
	heading := "# Analyzer " + name
	i := strings.Index(text, heading)
	if i < 0 {
		panic(fmt.Sprintf("docs: doc.go of %s has no %q heading", name, heading))
	}
	body := strings.TrimSpace(text[i+len(heading):])
	if !strings.HasPrefix(body, name+": ") {
		panic(fmt.Sprintf("docs: section %q must start with %q", heading, name+": "))
	}
	return strings.TrimPrefix(body, name+": ")
}

func docText(f *ast.File) string {
	if f.Doc == nil {
		return ""
	}
	return f.Doc.Text()
}
