// Package suppress gives every locklint driver the same suppression
// comment:
//
//	//locklint:ignore <analyzer>[,<analyzer>...] <reason>
//
// A directive on the line of a diagnostic, or on the line just above it,
// drops that analyzer's diagnostic. The reason is required: a directive
// without one suppresses nothing and is itself reported, and so is a
// directive that names no known analyzer.
//
// Wrap does the work inside each analyzer's Run, so the locklint command,
// go vet -vettool, go fix -fixtool and golangci-lint all honour the
// directive without knowing about it. Wrapping also turns a panic inside an
// analyzer into an ordinary analysis error naming the analyzer and package,
// so a bug in locklint never crashes the driver.
package suppress

import (
	"sync"

	"golang.org/x/tools/go/analysis"
)

// wrapped records the analyzers made by Wrap, so wrapping twice is harmless.
var wrapped sync.Map // *analysis.Analyzer -> struct{}

// Wrap returns copies of analyzers whose diagnostics honour
// //locklint:ignore directives. Analyzers that require a listed analyzer,
// directly or not, are copied too, so that the graph holds each analyzer
// (and so each fact type) once; analyzers they require that reach no listed
// one, such as inspect, are shared unchanged. Names, docs, URLs, flags,
// fact and result types are kept, and each copy's Run still finds its
// inputs under the original analyzers in Pass.ResultOf. Analyzers that are
// already wrapped are returned as they are.
//
// Call it once per driver with the whole list: the list defines the known
// analyzer names, and a directive naming none of them is reported (by the
// first analyzer in the list).
func Wrap(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	known := make(map[string]bool)
	listed := make(map[*analysis.Analyzer]bool)
	var reporter *analysis.Analyzer
	for _, a := range analyzers {
		known[a.Name] = true
		if _, done := wrapped.Load(a); !done {
			listed[a] = true
			if reporter == nil {
				reporter = a
			}
		}
	}

	// needs[a] reports whether a is listed or reaches a listed analyzer.
	needs := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer) bool
	visit = func(a *analysis.Analyzer) bool {
		if n, seen := needs[a]; seen {
			return n
		}
		needs[a] = listed[a] // also guards against (invalid) cycles
		n := listed[a]
		for _, r := range a.Requires {
			if visit(r) {
				n = true
			}
		}
		needs[a] = n
		return n
	}
	copies := make(map[*analysis.Analyzer]*analysis.Analyzer)
	for _, a := range analyzers {
		visit(a)
	}
	for a, n := range needs {
		if n {
			copies[a] = new(analysis.Analyzer)
		}
	}

	for orig, c := range copies {
		*c = *orig // the FlagSet copy shares its flag Values, so flag settings reach both
		w := &wrapper{orig: orig, known: known, reportsUnknown: orig == reporter}
		c.Requires = make([]*analysis.Analyzer, len(orig.Requires))
		for i, r := range orig.Requires {
			c.Requires[i] = r
			if rc, ok := copies[r]; ok {
				c.Requires[i] = rc
				w.renamed = append(w.renamed, [2]*analysis.Analyzer{rc, r})
			}
		}
		c.Run = w.run
		wrapped.Store(c, struct{}{})
	}

	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		out[i] = a
		if c, ok := copies[a]; ok {
			out[i] = c
		}
	}
	return out
}
