package main

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// runJSON is locklint -json in standalone mode: the multichecker's JSON
// tree ({package: {analyzer: [diagnostic] | {"error": msg}}}), with each
// diagnostic printed once. The multichecker prints a file's diagnostics
// again under the package's test variant ("pkg [pkg.test]"); here the
// copy goes, so JSON reports the same set as text, SARIF and
// golangci-lint.
func runJSON(args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	run, code := analyze("json", args, analyzers, stderr)
	if run == nil {
		return code
	}
	tree := jsonTree(run.graph)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "\t")
	if err := enc.Encode(tree); err != nil {
		fmt.Fprintf(stderr, "locklint: writing JSON: %v\n", err)
		return 1
	}
	return code
}

type (
	jsonEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}
	jsonRelated struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
	jsonDiagnostic struct {
		Category       string        `json:"category,omitempty"`
		Posn           string        `json:"posn"`
		End            string        `json:"end"`
		Message        string        `json:"message"`
		SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
		Related        []jsonRelated `json:"related,omitempty"`
	}
	jsonError struct {
		Error string `json:"error"`
	}
)

// jsonTree builds the output, packages before their test variants so that
// a diagnostic stays under the package its file belongs to.
func jsonTree(graph *checker.Graph) map[string]map[string]any {
	roots := slices.Clone(graph.Roots)
	slices.SortStableFunc(roots, func(a, b *checker.Action) int {
		return compareBool(strings.Contains(a.Package.ID, " ["), strings.Contains(b.Package.ID, " ["))
	})
	type key struct {
		analyzer, posn, msg string
	}
	seen := make(map[key]bool)
	tree := make(map[string]map[string]any)
	put := func(pkg, analyzer string, v any) {
		if tree[pkg] == nil {
			tree[pkg] = make(map[string]any)
		}
		tree[pkg][analyzer] = v
	}
	for _, act := range roots {
		name := act.Analyzer.Name
		if act.Err != nil {
			put(act.Package.ID, name, jsonError{act.Err.Error()})
			continue
		}
		fset := act.Package.Fset
		var diags []jsonDiagnostic
		for _, d := range act.Diagnostics {
			k := key{name, posn(fset, d.Pos), d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			jd := jsonDiagnostic{Category: d.Category, Posn: k.posn, End: posn(fset, d.End), Message: d.Message}
			for _, f := range d.SuggestedFixes {
				jf := jsonFix{Message: f.Message, Edits: []jsonEdit{}}
				for _, e := range f.TextEdits {
					file := fset.File(e.Pos)
					if file == nil {
						continue
					}
					end := e.End
					if !end.IsValid() {
						end = e.Pos
					}
					jf.Edits = append(jf.Edits, jsonEdit{Filename: file.Name(), Start: file.Offset(e.Pos), End: file.Offset(end), New: string(e.NewText)})
				}
				jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
			}
			for _, r := range d.Related {
				jd.Related = append(jd.Related, jsonRelated{Posn: posn(fset, r.Pos), End: posn(fset, r.End), Message: r.Message})
			}
			diags = append(diags, jd)
		}
		if len(diags) > 0 {
			put(act.Package.ID, name, diags)
		}
	}
	return tree
}

func posn(fset *token.FileSet, pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	return fset.Position(pos).String()
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
