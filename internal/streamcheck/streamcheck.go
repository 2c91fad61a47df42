// Package streamcheck runs analyzers over packages and their dependencies
// in one process without holding the whole program in memory.
//
// x/tools' checker wants every package loaded with its syntax and type
// information before it starts, so memory grows with the program (go-zero
// with its dependencies: 2.4 GB). streamcheck asks the go command only for
// the package graph (no export data, so nothing is compiled), then parses
// and type-checks each package from source once its imports are done,
// runs the analyzers on it, and drops its syntax and type information,
// keeping only its types.Package (importers need it), its facts and the
// root packages' diagnostics. Dependencies get only the analyzers that
// produce facts (and what they require), as in x/tools' checker.
//
// It complements the go vet path (internal/vetrun), which caches results
// between runs but needs the dependencies' export data, so on an empty
// build cache compiles them all first.
package streamcheck

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/internal/vetrun"
)

// Config says what to load.
type Config struct {
	Dir   string // where to run the go command; "" for the current directory
	Tests bool   // also the packages' tests
	Tags  string // comma-separated build tags
}

// Result is what a run found, in go vet -json's form.
type Result struct {
	// Findings are the root packages' diagnostics, by package (a package
	// before its test variants), analyzer (in the order given) and report
	// order; a diagnostic reported in a package and again in its test
	// variant is kept once, under the package.
	Findings []vetrun.Finding
	// Errors are the packages' list, parse and type errors ("file:line:col:
	// message" where there is a position).
	Errors []string
	// Failures are analyzers that failed on a root package (a panic, or
	// a required analyzer that failed).
	Failures []Failure
}

// Failure is an analyzer that failed on a package.
type Failure struct {
	Package, Analyzer string
	Err               error
}

// Run loads the packages matching patterns and analyses them.
func Run(ctx context.Context, analyzers []*analysis.Analyzer, cfg Config, patterns ...string) (*Result, error) {
	lcfg := &packages.Config{
		Context: ctx,
		Dir:     cfg.Dir,
		Tests:   cfg.Tests,
		// The graph only: no types, so the go command compiles nothing.
		// No NeedModule: module metadata makes the go command fetch
		// every module's .info, which fails for versions the proxy no
		// longer serves even when the packages build.
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedImports | packages.NeedDeps | packages.NeedTypesSizes,
	}
	if cfg.Tags != "" {
		lcfg.BuildFlags = []string{"-tags=" + cfg.Tags}
	}
	roots, err := packages.Load(lcfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	r := newRun(analyzers, roots)
	r.analyse(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.result(), nil
}

// unit is one package of the graph while the run goes.
type unit struct {
	pkg    *packages.Package
	root   bool
	done   chan struct{} // closed when types and facts are ready
	types  *types.Package
	errors []string
	// Kept for roots only, converted as soon as the package is done.
	findings map[*analysis.Analyzer][]vetrun.Finding
	failures map[*analysis.Analyzer]error
}

type run struct {
	analyzers []*analysis.Analyzer // as given (their order is the output's)
	units     map[*packages.Package]*unit
	order     []*unit // dependencies before importers
	rootSet   []*analysis.Analyzer
	depSet    []*analysis.Analyzer
	fset      *token.FileSet
	facts     *factStore
}

func newRun(analyzers []*analysis.Analyzer, roots []*packages.Package) *run {
	r := &run{analyzers: analyzers, units: make(map[*packages.Package]*unit), fset: token.NewFileSet(), facts: newFactStore()}
	packages.Visit(roots, nil, func(p *packages.Package) {
		u := &unit{pkg: p, done: make(chan struct{})}
		r.units[p] = u
		r.order = append(r.order, u) // post-order: imports first
	})
	for _, p := range roots {
		r.units[p].root = true
	}
	r.rootSet = closure(analyzers, func(*analysis.Analyzer) bool { return true })
	r.depSet = closure(analyzers, usesFacts)
	return r
}

// closure lists the analyzers that keep(a) selects among analyzers and
// everything they require, required ones first.
func closure(analyzers []*analysis.Analyzer, keep func(*analysis.Analyzer) bool) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		out = append(out, a)
	}
	for _, a := range analyzers {
		if keep(a) {
			visit(a)
		}
	}
	return out
}

// usesFacts reports whether a, or an analyzer it requires, has facts: then
// it must run on every dependency.
func usesFacts(a *analysis.Analyzer) bool {
	if len(a.FactTypes) > 0 {
		return true
	}
	return slices.ContainsFunc(a.Requires, usesFacts)
}

// analyse runs every unit once its imports are done, as many at a time as
// there are CPUs.
func (r *run) analyse(ctx context.Context) {
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, u := range r.order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(u.done)
			for _, imp := range u.pkg.Imports {
				if d := r.units[imp]; d != nil {
					<-d.done
				}
			}
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			r.check(u)
		}()
	}
	wg.Wait()
}

// check parses and type-checks u, runs the analyzers on it, and keeps what
// outlives it.
func (r *run) check(u *unit) {
	p := u.pkg
	for _, e := range p.Errors {
		u.errors = append(u.errors, e.Error())
	}
	var files []*ast.File
	for _, name := range p.CompiledGoFiles {
		f, err := parser.ParseFile(r.fset, name, nil, parser.ParseComments|parser.AllErrors)
		if err != nil {
			var list interface{ Unwrap() []error }
			if errors.As(err, &list) {
				for _, e := range list.Unwrap() {
					u.errors = append(u.errors, e.Error())
				}
			} else {
				u.errors = append(u.errors, err.Error())
			}
		}
		if f != nil {
			files = append(files, f)
		}
	}
	info := &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	var typeErrors []types.Error
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if d := r.units[p.Imports[path]]; d != nil && d.types != nil {
				return d.types, nil
			}
			return nil, fmt.Errorf("no package for import %q", path)
		}),
		Sizes: p.TypesSizes,
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				typeErrors = append(typeErrors, te)
			}
			u.errors = append(u.errors, err.Error())
		},
	}
	if tc.Sizes == nil {
		tc.Sizes = types.SizesFor("gc", runtime.GOARCH)
	}
	u.types, _ = tc.Check(p.PkgPath, r.fset, files, info) // errors: above
	illTyped := len(u.errors) > 0

	set := r.depSet
	if u.root {
		set = r.rootSet
		u.findings = make(map[*analysis.Analyzer][]vetrun.Finding)
		u.failures = make(map[*analysis.Analyzer]error)
	}
	results := make(map[*analysis.Analyzer]any)
	failed := make(map[*analysis.Analyzer]error)
	for _, a := range set {
		var missing []string
		for _, req := range a.Requires {
			if failed[req] != nil {
				missing = append(missing, req.Name)
			}
		}
		var err error
		switch {
		case len(missing) > 0:
			err = fmt.Errorf("failed prerequisites: %s", strings.Join(missing, ", "))
		case illTyped && !a.RunDespiteErrors:
			err = fmt.Errorf("analysis skipped due to errors in package")
		default:
			pass := &analysis.Pass{
				Analyzer:     a,
				Fset:         r.fset,
				Files:        files,
				OtherFiles:   p.OtherFiles,
				IgnoredFiles: p.IgnoredFiles,
				Pkg:          u.types,
				TypesInfo:    info,
				TypesSizes:   tc.Sizes,
				TypeErrors:   typeErrors,
				ResultOf:     make(map[*analysis.Analyzer]any, len(a.Requires)),
				ReadFile:     readFile(p),
			}
			for _, req := range a.Requires {
				pass.ResultOf[req] = results[req]
			}
			r.facts.bind(pass, u, r.units)
			var diags []analysis.Diagnostic
			pass.Report = func(d analysis.Diagnostic) { diags = append(diags, d) }
			results[a], err = runAnalyzer(a, pass)
			if u.root {
				for _, d := range diags {
					u.findings[a] = append(u.findings[a], finding(r.fset, a, p.ID, d))
				}
			}
		}
		if err != nil {
			failed[a] = err
			if u.root {
				u.failures[a] = err
			}
		}
	}
	// Only types and facts outlive the package from here on.
}

// runAnalyzer runs a on pass; a panic is an error, not the end of the run.
func runAnalyzer(a *analysis.Analyzer, pass *analysis.Pass) (result any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("analyzer %s panicked on package %s: %v", a.Name, pass.Pkg.Path(), v)
		}
	}()
	result, err = a.Run(pass)
	if err == nil && result != nil && a.ResultType != nil && reflect.TypeOf(result) != a.ResultType {
		err = fmt.Errorf("analyzer %s returned a %T, not a %v", a.Name, result, a.ResultType)
	}
	return result, err
}

// readFile lets an analyzer read the package's own files only, as
// go/analysis requires.
func readFile(p *packages.Package) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		for _, list := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles, p.EmbedFiles} {
			if slices.Contains(list, name) {
				return os.ReadFile(name)
			}
		}
		return nil, fmt.Errorf("ReadFile: %s is not among the files of package %s", name, p.PkgPath)
	}
}

// finding converts a diagnostic to go vet -json's form.
func finding(fset *token.FileSet, a *analysis.Analyzer, pkgID string, d analysis.Diagnostic) vetrun.Finding {
	f := vetrun.Finding{Analyzer: a.Name, Package: pkgID, Category: d.Category,
		Posn: posn(fset, d.Pos), End: posn(fset, d.End), Message: d.Message}
	for _, fix := range d.SuggestedFixes {
		vf := vetrun.Fix{Message: fix.Message, Edits: []vetrun.Edit{}}
		for _, e := range fix.TextEdits {
			file := fset.File(e.Pos)
			if file == nil {
				continue
			}
			end := e.End
			if !end.IsValid() {
				end = e.Pos
			}
			vf.Edits = append(vf.Edits, vetrun.Edit{Filename: file.Name(), Start: file.Offset(e.Pos), End: file.Offset(end), New: string(e.NewText)})
		}
		f.Fixes = append(f.Fixes, vf)
	}
	for _, rel := range d.Related {
		f.Related = append(f.Related, vetrun.Related{Posn: posn(fset, rel.Pos), End: posn(fset, rel.End), Message: rel.Message})
	}
	return f
}

func posn(fset *token.FileSet, pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	return fset.Position(pos).String()
}

// result gathers the roots' findings and every package's errors.
func (r *run) result() *Result {
	res := &Result{}
	for _, u := range r.order {
		res.Errors = append(res.Errors, u.errors...)
	}
	var roots []*unit
	for _, u := range r.order {
		if u.root {
			roots = append(roots, u)
		}
	}
	// Packages before their test variants, so that a diagnostic in both
	// stays under the package its file belongs to.
	slices.SortStableFunc(roots, func(a, b *unit) int {
		va, vb := strings.Contains(a.pkg.ID, " ["), strings.Contains(b.pkg.ID, " [")
		switch {
		case va == vb:
			return strings.Compare(a.pkg.ID, b.pkg.ID)
		case !va:
			return -1
		}
		return 1
	})
	type key struct{ analyzer, posn, msg string }
	seen := make(map[key]bool)
	for _, u := range roots {
		for _, a := range r.rootSet {
			if err := u.failures[a]; err != nil && slices.Contains(r.analyzers, a) {
				res.Failures = append(res.Failures, Failure{Package: u.pkg.ID, Analyzer: a.Name, Err: err})
			}
		}
		for _, a := range r.analyzers {
			for _, f := range u.findings[a] {
				k := key{a.Name, f.Posn, f.Message}
				if seen[k] {
					continue
				}
				seen[k] = true
				res.Findings = append(res.Findings, f)
			}
		}
	}
	return res
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
