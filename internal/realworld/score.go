package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// acquiredHere is the related information the analyzers give for where
// the lock was taken.
const acquiredHere = "lock acquired here"

// alsoWritten begins lockfence's related information for the section's
// other unfenced writes: each is a defect line of its own only where the
// report itself lands.
const alsoWritten = "also written without a fence"

// tolerance is how many lines a report may land from its label and still
// count: a report on the call's first line for a label on its argument
// line, or on the if around it, is the same finding.
const tolerance = 2

// Report is one diagnostic, as locklint -json prints it.
type Report struct {
	Analyzer string `json:"analyzer"`
	File     string `json:"file"` // relative to the repository root
	Line     int    `json:"line"`
	Message  string `json:"message"`
	// Related are the lines of the report's related information in the
	// same file (lockexpiry names the separate EXPIRE of a D1 pair there).
	Related string `json:"related,omitempty"`
}

// pairLines are the lines a report names for a defect that spans two
// lines: its own and its related lines (D1: the acquire and the separate
// EXPIRE; D10: the renewal and the branch that drops its failure, or the
// acquire and the work that goes on with the parent context; D7: the
// call of a helper and the helper's write; D8: the acquire and the
// branch that falls through after it failed). Where the
// lock was acquired is context, not part of the defect, and is not
// among them (see run).
func (r Report) pairLines() []int {
	lines := []int{r.Line}
	for f := range strings.FieldsSeq(r.Related) {
		if n, err := strconv.Atoi(f); err == nil {
			lines = append(lines, n)
		}
	}
	return lines
}

// twoLines are the classes whose defect spans two lines that a report
// may name either of (pairLines): D1 labels both of its lines, so only
// recall looks at a report's related lines; a D10 is labelled once, on
// either line; a D7 on the acquire and the writes, and a report at the
// call of a helper names the helper's write; a D8 on the acquire, and a
// report at the branch that misreads it names the acquire.
var twoLines = map[string]bool{"D1": true, "D7": true, "D8": true, "D10": true}

// labelledOnce are the twoLines classes labelled on one of their lines,
// so that precision too counts a report at either.
var labelledOnce = map[string]bool{"D7": true, "D8": true, "D10": true}

// Outcome is what happened to a label or a report, for listing.
type Outcome struct {
	Repo     string `json:"repo"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Class    string `json:"class,omitempty"`    // labels
	Why      string `json:"why,omitempty"`      // labels
	Kind     string `json:"kind,omitempty"`     // must-not-flag sites
	Analyzer string `json:"analyzer,omitempty"` // reports
	Message  string `json:"message,omitempty"`  // reports
}

// Ratio is a count of hits out of a total.
type Ratio struct {
	Hit   int `json:"hit"`
	Total int `json:"total"`
}

// Value is Hit/Total, or 1 when there is nothing to count.
func (r Ratio) Value() float64 {
	if r.Total == 0 {
		return 1
	}
	return float64(r.Hit) / float64(r.Total)
}

func (r Ratio) String() string {
	return fmt.Sprintf("%d/%d (%.2f)", r.Hit, r.Total, r.Value())
}

// Score is the result of one run over the corpus.
type Score struct {
	Repos     int               `json:"repos"`
	Files     int               `json:"files"`
	Safe      int               `json:"must_not_flag_sites"`
	Precision map[string]*Ratio `json:"precision"` // per analyzer: right reports / reports in labelled files
	Recall    map[string]*Ratio `json:"recall"`    // per class: labels found / labels
	Misses    []Outcome         `json:"misses"`
	False     []Outcome         `json:"false_reports"`
	// Right lists the right reports (JSON only: to study what kinds of
	// code the right and the false reports of an analyzer land on).
	Right []Outcome `json:"right_reports"`
	// SafeHit lists must-not-flag sites with a report on them (each also
	// counts as a false report).
	SafeHit []Outcome `json:"must_not_flag_reported"`
	// Errors are packages that did not load or analyzers that failed.
	Errors []string `json:"errors"`
}

// Runner runs locklint on corpus packages.
type Runner struct {
	Locklint string // the locklint binary
	Corpus   string // the checkouts
	Jobs     int    // packages analysed at once
}

// unit is one locklint run: a package of a module of a repository.
type unit struct {
	repo   *Repo
	module string
	pkg    string
	files  []*File
}

// Score runs locklint on every labelled package and scores its reports.
func (rn *Runner) Score(ctx context.Context, repos []*Repo) *Score {
	sc := &Score{Precision: make(map[string]*Ratio), Recall: make(map[string]*Ratio)}
	var units []*unit
	for _, r := range repos {
		sc.Repos++
		byPkg := make(map[[2]string]*unit)
		for i := range r.Files {
			f := &r.Files[i]
			sc.Files++
			sc.Safe += len(f.Safe)
			k := [2]string{f.Module, f.Package}
			u := byPkg[k]
			if u == nil {
				u = &unit{repo: r, module: f.Module, pkg: f.Package}
				byPkg[k] = u
				units = append(units, u)
			}
			u.files = append(u.files, f)
		}
	}
	type result struct {
		reports []Report
		err     error
	}
	results := make([]result, len(units))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(rn.Jobs, 1))
	for i, u := range units {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i].reports, results[i].err = rn.run(ctx, u)
		}()
	}
	wg.Wait()
	for i, u := range units {
		if err := results[i].err; err != nil {
			sc.Errors = append(sc.Errors, fmt.Sprintf("%s %s: %v", u.repo.Repo, filepath.Join(u.module, u.pkg), err))
		}
		sc.add(u, results[i].reports)
	}
	return sc
}

// add scores one unit's reports against its labels.
func (sc *Score) add(u *unit, reports []Report) {
	byFile := make(map[string][]Report)
	for _, rep := range reports {
		byFile[rep.File] = append(byFile[rep.File], rep)
	}
	near := func(line int, lines ...int) bool {
		for _, l := range lines {
			if line >= l-tolerance && line <= l+tolerance {
				return true
			}
		}
		return false
	}
	for _, f := range u.files {
		reps := byFile[f.File]
		for _, d := range f.Defects {
			rc := sc.ratio(sc.Recall, d.Class)
			rc.Total++
			found := slices.ContainsFunc(reps, func(rep Report) bool {
				if !slices.Contains(Classes[d.Class], rep.Analyzer) {
					return false
				}
				if twoLines[d.Class] { // one defect on two lines: either counts
					return slices.ContainsFunc(rep.pairLines(), func(l int) bool { return near(l, d.Lines()...) })
				}
				return near(rep.Line, d.Lines()...)
			})
			if found {
				rc.Hit++
			} else {
				sc.Misses = append(sc.Misses, Outcome{Repo: u.repo.Repo, File: f.File, Line: d.Line, Class: d.Class, Why: d.Why})
			}
		}
		for _, rep := range reps {
			pr := sc.ratio(sc.Precision, rep.Analyzer)
			pr.Total++
			right := slices.ContainsFunc(f.Defects, func(d Defect) bool {
				if !slices.Contains(Classes[d.Class], rep.Analyzer) {
					return false
				}
				if labelledOnce[d.Class] {
					return slices.ContainsFunc(rep.pairLines(), func(l int) bool { return near(l, d.Lines()...) })
				}
				return near(rep.Line, d.Lines()...)
			})
			if right {
				pr.Hit++
				sc.Right = append(sc.Right, Outcome{Repo: u.repo.Repo, File: f.File, Line: rep.Line, Analyzer: rep.Analyzer, Message: rep.Message})
				continue
			}
			sc.False = append(sc.False, Outcome{Repo: u.repo.Repo, File: f.File, Line: rep.Line, Analyzer: rep.Analyzer, Message: rep.Message})
			for _, s := range f.Safe {
				if near(rep.Line, s.Line) {
					sc.SafeHit = append(sc.SafeHit, Outcome{Repo: u.repo.Repo, File: f.File, Line: s.Line, Kind: s.Kind, Why: s.Why, Analyzer: rep.Analyzer, Message: rep.Message})
				}
			}
		}
	}
}

func (sc *Score) ratio(m map[string]*Ratio, k string) *Ratio {
	if m[k] == nil {
		m[k] = new(Ratio)
	}
	return m[k]
}

// run runs locklint -json on one package and returns its reports, once
// each (a package is analysed with and without its tests).
func (rn *Runner) run(ctx context.Context, u *unit) ([]Report, error) {
	repoDir := u.repo.Dir(rn.Corpus)
	modDir := filepath.Join(repoDir, u.module)
	if _, err := os.Stat(filepath.Join(modDir, "go.mod")); err != nil {
		return nil, fmt.Errorf("no checkout (see internal/realworld/README.md): %w", err)
	}
	pkg := "./" + filepath.ToSlash(filepath.Clean(u.pkg))
	workspace := inWorkspace(repoDir, modDir)
	stdout, stderr, err := rn.locklint(ctx, modDir, pkg, workspace)
	if workspace && err != nil {
		// A workspace loads every member's requirements, and another
		// member may need a module version the proxy no longer serves
		// (403): analyse the module on its own, as its go.mod says, when
		// that loads.
		if out, errOut, errAlone := rn.locklint(ctx, modDir, pkg, false); errAlone == nil {
			stdout, stderr, err = out, errOut, nil
		}
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, err
	}
	if err != nil && len(stdout) == 0 {
		return nil, fmt.Errorf("%w: %s", err, firstLines(string(stderr), 5))
	}
	reports, perr := parseJSON(stdout, repoDir)
	if perr == nil && err != nil {
		// Analysed, but the package (or a dependency) had errors: the
		// figures would rest on a partial type check.
		perr = fmt.Errorf("package errors: %s", firstLines(string(stderr), 3))
	}
	return reports, perr
}

// inWorkspace reports whether a go.work in modDir or above it, inside the
// repository, applies.
func inWorkspace(repoDir, modDir string) bool {
	for dir := modDir; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return true
		}
		if dir == repoDir || len(dir) <= len(repoDir) {
			return false
		}
	}
}

// parseJSON reads multichecker's -json output: {pkg: {analyzer: [diag] |
// {"error": msg}}}. Diagnostics are deduplicated across package variants.
func parseJSON(data []byte, repoDir string) ([]Report, error) {
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, fmt.Errorf("locklint -json: %w: %s", err, firstLines(string(data), 3))
	}
	seen := make(map[Report]bool)
	var out []Report
	var errs []string
	for _, pkg := range slices.Sorted(maps.Keys(tree)) {
		for _, an := range slices.Sorted(maps.Keys(tree[pkg])) {
			raw := tree[pkg][an]
			var failed struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(raw, &failed) == nil && failed.Error != "" {
				errs = append(errs, fmt.Sprintf("%s: %s: %s", pkg, an, failed.Error))
				continue
			}
			var diags []struct {
				Posn    string `json:"posn"`
				Message string `json:"message"`
				Related []struct {
					Posn    string `json:"posn"`
					Message string `json:"message"`
				} `json:"related"`
			}
			if err := json.Unmarshal(raw, &diags); err != nil {
				return nil, fmt.Errorf("%s %s: %w", pkg, an, err)
			}
			for _, d := range diags {
				file, line, err := splitPosn(d.Posn)
				if err != nil {
					return nil, err
				}
				if rel, err := filepath.Rel(repoDir, file); err == nil {
					file = filepath.ToSlash(rel)
				}
				r := Report{Analyzer: an, File: file, Line: line, Message: d.Message}
				var rel []string
				for _, x := range d.Related {
					if x.Message == acquiredHere || strings.HasPrefix(x.Message, alsoWritten) {
						continue // context, not a line of the defect
					}
					if f, l, err := splitPosn(x.Posn); err == nil && filepath.ToSlash(f) == filepath.ToSlash(filepath.Join(repoDir, file)) {
						rel = append(rel, strconv.Itoa(l))
					}
				}
				r.Related = strings.Join(rel, " ")
				if !seen[r] {
					seen[r] = true
					out = append(out, r)
				}
			}
		}
	}
	if len(errs) > 0 {
		return out, errors.New(strings.Join(errs, "; "))
	}
	return out, nil
}

// splitPosn splits "file:line:col".
func splitPosn(posn string) (string, int, error) {
	i := strings.LastIndex(posn, ":")
	if i < 0 {
		return "", 0, fmt.Errorf("position %q", posn)
	}
	j := strings.LastIndex(posn[:i], ":")
	if j < 0 {
		return "", 0, fmt.Errorf("position %q", posn)
	}
	line, err := strconv.Atoi(posn[j+1 : i])
	if err != nil {
		return "", 0, fmt.Errorf("position %q", posn)
	}
	return posn[:j], line, nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

// locklint runs locklint -json on pkg in modDir: in workspace mode (a
// go.work ties the module to its siblings; -mod=mod is refused there) or
// on the module alone. Labels are on non-test files, and test files can
// import packages the module proxy no longer serves: the package is
// analysed without its tests.
func (rn *Runner) locklint(ctx context.Context, modDir, pkg string, workspace bool) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, rn.Locklint, "-json", "-test=false", pkg)
	cmd.Dir = modDir
	if workspace {
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=")
	} else {
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOWORK=off")
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}
