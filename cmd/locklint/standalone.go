package main

import (
	"bytes"
	"context"
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

// A standalone text, JSON or SARIF run (`locklint [-json|-sarif] [flags]
// packages`) goes through the go command: go vet -vettool=locklint
// analyses one package per process with the dependencies' facts from its
// build cache, so memory stays bounded by the largest package, and a rerun
// over unchanged code is served from the cache. go vet needs the
// dependencies' export data, so on an empty build cache it compiles them
// first; LOCKLINT_DRIVER=inprocess (and -test=false, which go vet cannot
// pass on) analyses in this process instead (streamcheck: from source in
// dependency order, nothing compiled, nothing cached). Both give the same
// output and exit codes: each finding as "file:line:col: message" on
// stderr, exit code 3 when anything was found, 1 when a package could not
// be analysed; with -json the tree {package: {analyzer: [finding]}} on
// stdout, with -sarif a SARIF log, exit code 0 or 1. -fix (and -fix
// -diff) goes through go fix -fixtool=locklint; -c and the profiling
// flags keep the multichecker.

// driverEnv selects the driver of standalone runs: "inprocess" for
// streamcheck.
const driverEnv = "LOCKLINT_DRIVER"

// standaloneRequest is a standalone run: text, JSON or SARIF through go
// vet or in process, or -fix through go fix.
type standaloneRequest struct {
	flags    []string // passed on to go vet (analyzer flags, -tags)
	patterns []string
	json     bool
	sarif    bool
	// inProcess: analyse in this process (streamcheck), not through go
	// vet: LOCKLINT_DRIVER=inprocess, or -test=false.
	inProcess bool
	fix       bool // apply the fixes: go fix -fixtool
	diff      bool // with fix: print them as a diff instead
}

// parseStandalone reports whether args ask for a standalone text, JSON or
// SARIF run, or a -fix run that go fix can do, and which driver runs it.
func parseStandalone(args []string, analyzers []*analysis.Analyzer) (req standaloneRequest, ok bool) {
	var flags, patterns []string
	req.inProcess = os.Getenv(driverEnv) == "inprocess"
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
					return standaloneRequest{}, false
				}
				i++
				value = args[i]
			}
			flags = append(flags, "-tags="+value)
		case name == "test":
			if hasValue && value != "true" && value != "1" {
				req.inProcess = true // go vet always analyses the tests
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
				return standaloneRequest{}, false
			}
			i++
			flags = append(flags, "-"+name+"="+args[i])
		case known:
			flags = append(flags, a)
		default:
			return standaloneRequest{}, false
		}
	}
	for _, p := range patterns {
		if strings.HasSuffix(p, ".cfg") || p == "help" {
			return standaloneRequest{}, false
		}
	}
	if len(patterns) == 0 || req.diff && !req.fix || req.fix && (req.json || req.sarif || req.inProcess) || req.json && req.sarif {
		return standaloneRequest{}, false // the multichecker handles (or rejects) these
	}
	req.flags, req.patterns = flags, patterns
	return req, true
}

// runStandaloneVet runs go vet with this executable as the tool and
// prints what it found like the in-process driver.
func runStandaloneVet(req standaloneRequest, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
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
	all := sortFindings(res.All, analyzers)
	var notes []string
	for _, file := range slices.Sorted(maps.Keys(res.Errors)) {
		for _, msg := range res.Errors[file] {
			fmt.Fprintln(stderr, msg)
			notes = append(notes, msg)
		}
	}
	failed := len(notes) > 0
	switch {
	case req.sarif:
		return writeSARIF(vetSelection(analyzers, req.flags), all, notes, stdout, stderr)
	case req.json:
		if err := writeJSON(stdout, all, nil); err != nil {
			fmt.Fprintf(stderr, "locklint: writing JSON: %v\n", err)
			return 1
		}
		if failed {
			return 1
		}
		return 0
	}
	printText(stderr, all)
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
func runFix(exe string, req standaloneRequest, stdout, stderr io.Writer) int {
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
