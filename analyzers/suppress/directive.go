package suppress

import (
	"fmt"
	"go/ast"
	"go/token"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Prefix starts every suppression directive.
const Prefix = "//locklint:ignore"

// directive is one parsed //locklint:ignore comment.
type directive struct {
	pos, end token.Pos
	line     int
	names    []string
	reason   string
}

// parse returns the directive in comment c, or ok=false if c is not one.
// A space after the slashes is tolerated, as people type it.
func parse(c *ast.Comment) (d directive, ok bool) {
	text := c.Text
	if !strings.HasPrefix(text, "//") {
		return d, false // block comments are not directives
	}
	rest := strings.TrimLeft(text[2:], " \t")
	rest, ok = strings.CutPrefix(rest, Prefix[2:])
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return d, false // e.g. //locklint:ignored
	}
	fields := strings.Fields(rest)
	d = directive{pos: c.Pos(), end: c.End()}
	if len(fields) > 0 {
		for n := range strings.SplitSeq(fields[0], ",") {
			if n != "" {
				d.names = append(d.names, n)
			}
		}
		// "//locklint:ignore x // why" is read like nolint's "// why".
		d.reason = strings.TrimSpace(strings.TrimPrefix(strings.Join(fields[1:], " "), "//"))
	}
	return d, true
}

// wrapper runs one analyzer with suppression applied.
type wrapper struct {
	orig           *analysis.Analyzer
	known          map[string]bool
	reportsUnknown bool                    // whether this analyzer reports directives naming no known analyzer
	renamed        [][2]*analysis.Analyzer // (copy, original) pairs among Requires
}

func (w *wrapper) run(pass *analysis.Pass) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result = nil
			err = fmt.Errorf("internal error in analyzer %s on package %s: %v (please report this bug with the code that triggers it)\n%s",
				w.orig.Name, pass.Pkg.Path(), r, debug.Stack())
		}
	}()

	// byLine[file][line] lists the directives that cover that line.
	byLine := make(map[*token.File]map[int][]directive)
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				d, ok := parse(c)
				if !ok {
					continue
				}
				d.line = tf.Line(d.pos)
				w.check(pass, d)
				if d.reason == "" || !slices.Contains(d.names, w.orig.Name) {
					continue
				}
				m := byLine[tf]
				if m == nil {
					m = make(map[int][]directive)
					byLine[tf] = m
				}
				m[d.line] = append(m[d.line], d)
				m[d.line+1] = append(m[d.line+1], d)
			}
		}
	}

	inner := *pass
	inner.Analyzer = w.orig
	if len(w.renamed) > 0 {
		inner.ResultOf = make(map[*analysis.Analyzer]any, len(pass.ResultOf)+len(w.renamed))
		for a, r := range pass.ResultOf {
			inner.ResultOf[a] = r
		}
		for _, p := range w.renamed {
			inner.ResultOf[p[1]] = pass.ResultOf[p[0]]
		}
	}
	if len(byLine) > 0 {
		report := pass.Report
		inner.Report = func(d analysis.Diagnostic) {
			if tf := pass.Fset.File(d.Pos); tf != nil && len(byLine[tf][tf.Line(d.Pos)]) > 0 {
				return
			}
			report(d)
		}
	}
	return w.orig.Run(&inner)
}

// check reports a malformed directive once: a missing reason is reported
// by the first known analyzer it names, a directive naming no known
// analyzer by the reporting analyzer.
func (w *wrapper) check(pass *analysis.Pass, d directive) {
	var firstKnown string
	var unknown []string
	for _, n := range d.names {
		if w.known[n] {
			if firstKnown == "" {
				firstKnown = n
			}
		} else {
			unknown = append(unknown, n)
		}
	}
	var msg string
	switch {
	case len(d.names) == 0 && w.reportsUnknown:
		msg = "//locklint:ignore needs an analyzer name and a reason, e.g. //locklint:ignore lockrelease released by the caller; it suppresses nothing"
	case len(unknown) > 0 && w.reportsUnknown:
		msg = fmt.Sprintf("//locklint:ignore names unknown analyzer %s (known: %s)", strings.Join(unknown, ", "), w.knownList())
	case firstKnown == w.orig.Name && d.reason == "":
		msg = fmt.Sprintf("//locklint:ignore %s needs a reason after the analyzer name; without one it suppresses nothing", strings.Join(d.names, ","))
	default:
		return
	}
	pass.Report(analysis.Diagnostic{Pos: d.pos, End: d.end, Category: "ignore", Message: msg})
}

func (w *wrapper) knownList() string {
	names := make([]string, 0, len(w.known))
	for n := range w.known {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
