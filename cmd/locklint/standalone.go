package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/internal/vetrun"
)

// A standalone text or JSON run (`locklint [-json] [flags] packages`) goes
// through the go command: go vet -vettool=locklint analyses one package per process with
// the dependencies' facts from its build cache, so memory stays bounded
// by the largest package instead of the whole program (go-zero: 2.5 GB
// in one process), and a rerun over unchanged code is served from the
// cache. The output and exit codes are the in-process driver's: each
// finding as "file:line:col: message" on stderr, exit code 3 when
// anything was found, 1 when a package could not be analysed; with -json
// the tree {package: {analyzer: [finding]}} on stdout, exit code 0 or 1.
// LOCKLINT_DRIVER=inprocess, or a flag the go command cannot pass on
// (-test=false, -c, -sarif, the profiling flags), keeps the in-process
// driver. -fix (and -fix -diff) goes through go fix -fixtool=locklint.

// driverEnv selects the driver of standalone runs.
const driverEnv = "LOCKLINT_DRIVER"

// vetRequest is a standalone run that go vet can do.
type vetRequest struct {
	flags    []string // passed on to go vet (analyzer flags, -tags)
	patterns []string
	json     bool
	sarif    bool
	fix      bool // apply the fixes: go fix -fixtool
	diff     bool // with fix: print them as a diff instead
}

// standaloneVet reports whether args ask for a standalone text or JSON run
// that go vet can do.
func standaloneVet(args []string, analyzers []*analysis.Analyzer) (req vetRequest, ok bool) {
	var flags, patterns []string
	if os.Getenv(driverEnv) == "inprocess" {
		return vetRequest{}, false
	}
	names := make(map[string]bool) // analyzer names and flags -> takes no value
	for _, a := range analyzers {
		names[a.Name] = true
		a.Flags.VisitAll(func(f *flag.Flag) {
			bf, isBool := f.Value.(interface{ IsBoolFlag() bool })
			names[a.Name+"."+f.Name] = isBool && bf.IsBoolFlag()
		})
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			patterns = args[i+1:]
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			patterns = args[i:]
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		isBool, known := names[name]
		switch {
		case name == "tags":
			if !hasValue {
				if i+1 >= len(args) {
					return vetRequest{}, false
				}
				i++
				value = args[i]
			}
			flags = append(flags, "-tags="+value)
		case name == "test":
			if hasValue && value != "true" && value != "1" {
				return vetRequest{}, false // go vet always analyses the tests
			}
		case name == "json":
			req.json = !hasValue || value == "true" || value == "1"
		case name == "sarif":
			req.sarif = !hasValue || value == "true" || value == "1"
		case name == "fix":
			req.fix = !hasValue || value == "true" || value == "1"
		case name == "diff":
			req.diff = !hasValue || value == "true" || value == "1"
		case known && !isBool && !hasValue:
			if i+1 >= len(args) {
				return vetRequest{}, false
			}
			i++
			flags = append(flags, "-"+name+"="+args[i])
		case known:
			flags = append(flags, a)
		default:
			return vetRequest{}, false
		}
	}
	for _, p := range patterns {
		if strings.HasSuffix(p, ".cfg") || p == "help" {
			return vetRequest{}, false
		}
	}
	if len(patterns) == 0 || req.diff && !req.fix || req.fix && (req.json || req.sarif) || req.json && req.sarif {
		return vetRequest{}, false
	}
	req.flags, req.patterns = flags, patterns
	return req, true
}

// runStandaloneVet runs go vet with this executable as the tool and
// prints what it found like the in-process driver.
func runStandaloneVet(req vetRequest, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "locklint: %v\n", err)
		return 1
	}
	if req.fix {
		return runFix(exe, req, stdout, stderr)
	}
	res, err := (&vetrun.Runner{Tool: exe}).Run(context.Background(), ".", req.flags, req.patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "locklint: %v\n", err)
		return 1
	}
	// The in-process driver's order: by package (a package before its
	// test variant), then analyzer, then as reported.
	order := make(map[string]int)
	for i, a := range analyzers {
		order[a.Name] = i
	}
	all := slices.Clone(res.All)
	slices.SortStableFunc(all, func(a, b vetrun.Finding) int {
		pa, va := strings.CutSuffix(a.Package, "]")
		pb, vb := strings.CutSuffix(b.Package, "]")
		pa, _, _ = strings.Cut(pa, " [")
		pb, _, _ = strings.Cut(pb, " [")
		return cmp.Or(cmp.Compare(pa, pb), compareBool(va, vb), cmp.Compare(order[a.Analyzer], order[b.Analyzer]))
	})
	var notes []string
	for _, file := range slices.Sorted(maps.Keys(res.Errors)) {
		for _, msg := range res.Errors[file] {
			fmt.Fprintln(stderr, msg)
			notes = append(notes, msg)
		}
	}
	failed := len(notes) > 0
	if req.sarif {
		return writeSARIF(vetSelection(analyzers, req.flags), all, notes, stdout, stderr)
	}
	if req.json {
		// The in-process driver's tree: each finding once, under the
		// package (not its test variant) where both report it.
		tree := make(map[string]map[string][]vetrun.Finding)
		for _, f := range all {
			if tree[f.Package] == nil {
				tree[f.Package] = make(map[string][]vetrun.Finding)
			}
			tree[f.Package][f.Analyzer] = append(tree[f.Package][f.Analyzer], f)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "\t")
		if err := enc.Encode(tree); err != nil {
			fmt.Fprintf(stderr, "locklint: writing JSON: %v\n", err)
			return 1
		}
		if failed {
			return 1
		}
		return 0
	}
	for _, f := range all {
		fmt.Fprintf(stderr, "%s: %s\n", f.Posn, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(stderr, "%s: \t%s\n", r.Posn, r.Message)
		}
	}
	switch {
	case failed:
		return 1
	case len(all) > 0:
		return 3
	}
	return 0
}

// runFix applies the fixes (or prints them as a diff) through go fix
// -fixtool=locklint, one package per process like go vet. go fix -diff
// exits 1 when the diff is not empty; locklint -fix -diff exits 0 then,
// as the in-process driver does.
func runFix(exe string, req vetRequest, stdout, stderr io.Writer) int {
	args := []string{"fix", "-fixtool=" + exe}
	if req.diff {
		args = append(args, "-diff")
	}
	args = append(append(args, req.flags...), req.patterns...)
	cmd := exec.Command("go", args...)
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &errb
	err := cmd.Run()
	_, _ = stderr.Write(errb.Bytes())
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case !errors.As(err, &exit):
		fmt.Fprintf(stderr, "locklint: go fix: %v\n", err)
		return 1
	case req.diff && exit.ExitCode() == 1 && len(bytes.TrimSpace(errb.Bytes())) == 0:
		return 0 // a diff was printed
	}
	return exit.ExitCode()
}

// vetSelection is the analyzers that the enable flags among flags (as
// passed to go vet) select, the way the multichecker selects them.
func vetSelection(analyzers []*analysis.Analyzer, flags []string) []*analysis.Analyzer {
	enabled := make(map[*analysis.Analyzer]*triState)
	byName := make(map[string]*analysis.Analyzer)
	for _, a := range analyzers {
		enabled[a] = new(triState)
		byName[a.Name] = a
	}
	for _, f := range flags {
		name, value, hasValue := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if a := byName[name]; a != nil {
			if !hasValue {
				value = "true"
			}
			_ = enabled[a].Set(value) // go vet has accepted it
		}
	}
	return selectAnalyzers(analyzers, enabled)
}
