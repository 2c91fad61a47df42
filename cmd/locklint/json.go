package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/internal/streamcheck"
	"github.com/locklint/locklint/internal/vetrun"
)

// The output of standalone runs, the same from both drivers (go vet's and
// the in-process one): text lines, the JSON tree, SARIF (sarif.go).

// runJSON is locklint -json in process: the tree {package: {analyzer:
// [finding] | {"error": msg}}}, each finding once, under the package rather
// than its test variant, so that JSON reports the same set as text, SARIF
// and golangci-lint.
func runJSON(args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	run, code := analyze("json", args, analyzers, stderr)
	if run == nil {
		return code
	}
	if err := writeJSON(stdout, sortFindings(run.res.Findings, analyzers), run.res.Failures); err != nil {
		fmt.Fprintf(stderr, "locklint: writing JSON: %v\n", err)
		return 1
	}
	return code
}

// runText is a text run in process: findings on stderr, exit code 1 when
// a package could not be analysed, 3 when anything was found, else 0.
func runText(args []string, analyzers []*analysis.Analyzer, stderr io.Writer) int {
	run, code := analyze("text", args, analyzers, stderr)
	if run == nil {
		return code
	}
	findings := sortFindings(run.res.Findings, analyzers)
	printText(stderr, findings)
	switch {
	case code != 0:
		return code
	case len(findings) > 0:
		return 3
	}
	return 0
}

// sortFindings orders findings as the output shows them: by package (a
// package before its test variant), then analyzer, then as reported.
func sortFindings(findings []vetrun.Finding, analyzers []*analysis.Analyzer) []vetrun.Finding {
	order := make(map[string]int)
	for i, a := range analyzers {
		order[a.Name] = i
	}
	out := slices.Clone(findings)
	slices.SortStableFunc(out, func(a, b vetrun.Finding) int {
		pa, va := strings.CutSuffix(a.Package, "]")
		pb, vb := strings.CutSuffix(b.Package, "]")
		pa, _, _ = strings.Cut(pa, " [")
		pb, _, _ = strings.Cut(pb, " [")
		return cmp.Or(cmp.Compare(pa, pb), compareBool(va, vb), cmp.Compare(order[a.Analyzer], order[b.Analyzer]))
	})
	return out
}

// printText prints each finding as "file:line:col: message", and its
// related locations indented below it.
func printText(w io.Writer, findings []vetrun.Finding) {
	for _, f := range findings {
		fmt.Fprintf(w, "%s: %s\n", f.Posn, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(w, "%s: \t%s\n", r.Posn, r.Message)
		}
	}
}

// writeJSON writes the tree {package: {analyzer: [finding] | {"error":
// msg}}}.
func writeJSON(w io.Writer, findings []vetrun.Finding, failures []streamcheck.Failure) error {
	tree := make(map[string]map[string]any)
	put := func(pkg, analyzer string, v any) {
		if tree[pkg] == nil {
			tree[pkg] = make(map[string]any)
		}
		tree[pkg][analyzer] = v
	}
	lists := make(map[[2]string][]vetrun.Finding)
	for _, f := range findings {
		k := [2]string{f.Package, f.Analyzer}
		lists[k] = append(lists[k], f)
	}
	for k, list := range lists {
		put(k[0], k[1], list)
	}
	for _, f := range failures {
		put(f.Package, f.Analyzer, struct {
			Error string `json:"error"`
		}{f.Err.Error()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "\t")
	return enc.Encode(tree)
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
