package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/internal/streamcheck"
	"github.com/locklint/locklint/internal/vetrun"
)

// runSARIF is `locklint -sarif` in process (LOCKLINT_DRIVER=inprocess, or
// -test=false): it loads and analyses the packages itself and writes one
// SARIF 2.1.0 log to stdout; other -sarif runs go through go vet
// (runStandaloneVet). Either way package errors go to stderr and into the
// log as notifications, and the exit code is 1 if there were any, else 0
// whatever was found, so that CI can upload the log and let code scanning
// judge the results.
func runSARIF(args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	run, code := analyze("sarif", args, analyzers, stderr)
	if run == nil {
		return code
	}
	return writeSARIF(run.analyzers, run.res.Findings, run.notes, stdout, stderr)
}

// writeSARIF writes the log of a run from the current directory; the
// exit code is 1 when there are notes (package errors), else 0.
func writeSARIF(analyzers []*analysis.Analyzer, findings []vetrun.Finding, notes []string, stdout, stderr io.Writer) int {
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "locklint: %v\n", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(newSARIF(analyzers, findings, dir, notes)); err != nil {
		fmt.Fprintf(stderr, "locklint: writing SARIF: %v\n", err)
		return 1
	}
	if len(notes) > 0 {
		return 1
	}
	return 0
}

// analysisRun is one in-process run of the analyzers.
type analysisRun struct {
	analyzers []*analysis.Analyzer
	res       *streamcheck.Result
	notes     []string // package errors and analyzer failures
}

// analyze parses the flags of the output mode named mode (sarif, json, or
// text), loads the packages and runs the analyzers in this process
// (streamcheck: dependency order, syntax dropped as it goes). It prints
// package errors to stderr. It returns nil and an exit code when nothing
// could be analysed; otherwise the code to exit with: 1 if there were
// errors, else 0.
func analyze(mode string, args []string, analyzers []*analysis.Analyzer, stderr io.Writer) (*analysisRun, int) {
	fs := flag.NewFlagSet("locklint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if mode != "text" {
		fs.Bool(mode, true, "write "+mode+" to stdout")
	}
	tests := fs.Bool("test", true, "analyse test files too")
	tags := fs.String("tags", "", "comma-separated build tags")
	enabled := make(map[*analysis.Analyzer]*triState)
	for _, a := range analyzers {
		enabled[a] = new(triState)
		fs.Var(enabled[a], a.Name, fmt.Sprintf("enable %q analysis", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, a.Name+"."+f.Name, f.Usage) })
	}
	if err := fs.Parse(args); err != nil {
		return nil, 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "locklint: no packages given; usage: locklint [flags] ./...\n")
		return nil, 2
	}
	analyzers = selectAnalyzers(analyzers, enabled)
	res, err := streamcheck.Run(context.Background(), analyzers, streamcheck.Config{Tests: *tests, Tags: *tags}, fs.Args()...)
	if err != nil {
		fmt.Fprintf(stderr, "locklint: %v\n", err)
		return nil, 1
	}
	run := &analysisRun{analyzers: analyzers, res: res, notes: slices.Clone(res.Errors)}
	for _, f := range res.Failures {
		run.notes = append(run.notes, f.Err.Error())
	}
	for _, n := range run.notes {
		fmt.Fprintln(stderr, n)
	}
	if len(run.notes) > 0 {
		return run, 1
	}
	return run, 0
}

// triState is an analyzer's enable flag: unset, true or false.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (t *triState) IsBoolFlag() bool { return true }
func (t *triState) String() string {
	switch *t {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}
func (t *triState) Set(s string) error {
	switch s {
	case "true", "1", "t", "T", "TRUE", "True":
		*t = setTrue
	case "false", "0", "f", "F", "FALSE", "False":
		*t = setFalse
	default:
		return fmt.Errorf("want true or false, got %q", s)
	}
	return nil
}

// selectAnalyzers applies the enable flags the way the multichecker does:
// if any is true, only those run; otherwise those set false are dropped.
func selectAnalyzers(analyzers []*analysis.Analyzer, enabled map[*analysis.Analyzer]*triState) []*analysis.Analyzer {
	want := setFalse
	for _, a := range analyzers {
		if *enabled[a] == setTrue {
			want = setTrue
		}
	}
	return slices.DeleteFunc(slices.Clone(analyzers), func(a *analysis.Analyzer) bool {
		if want == setTrue {
			return *enabled[a] != setTrue
		}
		return *enabled[a] == setFalse
	})
}

// The SARIF 2.1.0 subset locklint writes.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		Invocations        []sarifInvocation           `json:"invocations"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		ColumnKind         string                      `json:"columnKind"`
		Results            []sarifResult               `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Version        string      `json:"version,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		Name             string       `json:"name"`
		ShortDescription sarifMessage `json:"shortDescription"`
		FullDescription  sarifMessage `json:"fullDescription"`
		Help             sarifMessage `json:"help"`
		HelpURI          string       `json:"helpUri,omitempty"`
	}
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        int             `json:"ruleIndex"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		Fixes            []sarifFix      `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               *int          `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifMessage `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           sarifRegion      `json:"region"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
	sarifFix struct {
		Description     sarifMessage          `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion   `json:"deletedRegion"`
		InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
	}
)

const srcRoot = "SRCROOT"

// newSARIF converts findings (go vet -json's form, which both drivers
// give) to a SARIF log. Paths under dir are relative to the SRCROOT base
// (dir); others are file URIs. Columns are 1-based UTF-16 code units,
// SARIF's default.
func newSARIF(analyzers []*analysis.Analyzer, findings []vetrun.Finding, dir string, notes []string) *sarifLog {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "locklint",
			InformationURI: "https://github.com/locklint/locklint",
			Version:        version(),
			Rules:          []sarifRule{},
		}},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{srcRoot: {URI: fileURI(dir) + "/"}},
		ColumnKind:         "utf16CodeUnits",
		Results:            []sarifResult{},
		Invocations:        []sarifInvocation{{ExecutionSuccessful: len(notes) == 0}},
	}
	for _, n := range notes {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifMessage{Text: n}})
	}
	ruleIndex := make(map[string]int)
	for _, a := range analyzers {
		ruleIndex[a.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:               a.Name,
			Name:             a.Name,
			ShortDescription: sarifMessage{Text: strings.TrimPrefix(title(a.Doc), a.Name+": ")},
			FullDescription:  sarifMessage{Text: a.Doc},
			Help:             sarifMessage{Text: a.Doc},
			HelpURI:          a.URL,
		})
	}

	c := &converter{dir: dir, files: make(map[string]*sourceFile)}
	type key struct{ rule, posn, end, msg string }
	seen := make(map[key]bool) // a file in both a package and its test variant is analysed twice
	for _, f := range findings {
		k := key{f.Analyzer, f.Posn, f.End, f.Message}
		loc, ok := c.location(f.Posn, f.End)
		if !ok || seen[k] {
			continue
		}
		seen[k] = true
		r := sarifResult{
			RuleID:    f.Analyzer,
			RuleIndex: ruleIndex[f.Analyzer],
			Level:     "warning",
			Message:   sarifMessage{Text: f.Message},
			Locations: []sarifLocation{loc},
		}
		for i, rel := range f.Related {
			l, ok := c.location(rel.Posn, rel.End)
			if !ok {
				continue
			}
			id := i + 1
			l.ID = &id
			l.Message = &sarifMessage{Text: rel.Message}
			r.RelatedLocations = append(r.RelatedLocations, l)
		}
		for _, fix := range f.Fixes {
			if sf, ok := c.fix(fix); ok {
				r.Fixes = append(r.Fixes, sf)
			}
		}
		run.Results = append(run.Results, r)
	}
	slices.SortStableFunc(run.Results, func(a, b sarifResult) int {
		pa, pb := a.Locations[0].PhysicalLocation, b.Locations[0].PhysicalLocation
		return cmp.Or(
			strings.Compare(pa.ArtifactLocation.URI, pb.ArtifactLocation.URI),
			cmp.Compare(pa.Region.StartLine, pb.Region.StartLine),
			cmp.Compare(pa.Region.StartColumn, pb.Region.StartColumn),
			strings.Compare(a.RuleID, b.RuleID),
			strings.Compare(a.Message.Text, b.Message.Text),
		)
	})
	return &sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
}

// title is the first paragraph of an analyzer's Doc, on one line.
func title(doc string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(doc), "\n\n")
	return strings.Join(strings.Fields(first), " ")
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return ""
}

// converter turns go vet's positions ("file:line:col", byte columns, and
// byte offsets in edits) into SARIF locations, reading each file once to
// count columns in UTF-16 code units.
type converter struct {
	dir   string
	files map[string]*sourceFile
}

// sourceFile is a file's content and where its lines start; nil content
// when it cannot be read (columns then stay in bytes).
type sourceFile struct {
	src        []byte
	lineStarts []int
}

func (c *converter) file(name string) *sourceFile {
	if f, ok := c.files[name]; ok {
		return f
	}
	f := &sourceFile{lineStarts: []int{0}}
	f.src, _ = os.ReadFile(name)
	for i, b := range f.src {
		if b == '\n' {
			f.lineStarts = append(f.lineStarts, i+1)
		}
	}
	c.files[name] = f
	return f
}

// utf16Column converts a 1-based byte column on a 1-based line to a 1-based
// UTF-16 column.
func (f *sourceFile) utf16Column(line, col int) int {
	if line < 1 || line > len(f.lineStarts) {
		return col
	}
	start := f.lineStarts[line-1]
	end := start + col - 1
	if col < 1 || end > len(f.src) {
		return col
	}
	n := 0
	for b := f.src[start:end]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		n += utf16.RuneLen(r)
		b = b[size:]
	}
	return n + 1
}

// lineColumn converts a byte offset to a 1-based line and byte column.
func (f *sourceFile) lineColumn(offset int) (line, col int) {
	i, found := slices.BinarySearch(f.lineStarts, offset)
	if !found {
		i--
	}
	return i + 1, offset - f.lineStarts[i] + 1
}

func (c *converter) artifact(filename string) sarifArtifactLoc {
	if rel, err := filepath.Rel(c.dir, filename); err == nil && filepath.IsLocal(rel) {
		return sarifArtifactLoc{URI: (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), URIBaseID: srcRoot}
	}
	return sarifArtifactLoc{URI: fileURI(filename)}
}

func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive letters
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// path makes a position's file name absolute.
func (c *converter) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(c.dir, name)
}

// region returns the region from posn to end ("file:line:col"; end may be
// empty or "-").
func (c *converter) region(posn, end string) (string, sarifRegion, bool) {
	name, line, col := vetrun.SplitPosn(posn)
	if line == 0 {
		return "", sarifRegion{}, false
	}
	name = c.path(name)
	f := c.file(name)
	r := sarifRegion{StartLine: line, StartColumn: f.utf16Column(line, col)}
	if eName, eLine, eCol := vetrun.SplitPosn(end); eLine > 0 && c.path(eName) == name &&
		(eLine > line || eLine == line && eCol >= col) {
		r.EndLine, r.EndColumn = eLine, f.utf16Column(eLine, eCol)
	}
	return name, r, true
}

func (c *converter) location(posn, end string) (sarifLocation, bool) {
	file, r, ok := c.region(posn, end)
	if !ok {
		return sarifLocation{}, false
	}
	return sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: c.artifact(file), Region: r}}, true
}

// fix converts a suggested fix; a fix with an edit outside its file is
// dropped.
func (c *converter) fix(fix vetrun.Fix) (sarifFix, bool) {
	f := sarifFix{Description: sarifMessage{Text: fix.Message}}
	byFile := make(map[string]int)
	for _, e := range fix.Edits {
		name := c.path(e.Filename)
		src := c.file(name)
		if e.Start < 0 || e.End < e.Start || e.End > len(src.src) {
			return sarifFix{}, false
		}
		i, ok := byFile[name]
		if !ok {
			i = len(f.ArtifactChanges)
			byFile[name] = i
			f.ArtifactChanges = append(f.ArtifactChanges, sarifArtifactChange{ArtifactLocation: c.artifact(name)})
		}
		sl, sc := src.lineColumn(e.Start)
		el, ec := src.lineColumn(e.End)
		rep := sarifReplacement{DeletedRegion: sarifRegion{
			StartLine: sl, StartColumn: src.utf16Column(sl, sc),
			EndLine: el, EndColumn: src.utf16Column(el, ec),
		}}
		if e.New != "" {
			rep.InsertedContent = &sarifMessage{Text: e.New}
		}
		f.ArtifactChanges[i].Replacements = append(f.ArtifactChanges[i].Replacements, rep)
	}
	return f, len(f.ArtifactChanges) > 0
}
