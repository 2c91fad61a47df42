package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/internal/vetrun"
)

// A standalone text run (`locklint [flags] packages`) goes through the go
// command: go vet -vettool=locklint analyses one package per process with
// the dependencies' facts from its build cache, so memory stays bounded
// by the largest package instead of the whole program (go-zero: 2.5 GB
// in one process), and a rerun over unchanged code is served from the
// cache. The output and exit codes are the in-process driver's: each
// finding as "file:line:col: message" on stderr, exit code 3 when
// anything was found, 1 when a package could not be analysed.
// LOCKLINT_DRIVER=inprocess, or a flag the go command cannot pass on
// (-test=false, -c, the profiling flags), keeps the in-process driver.

// driverEnv selects the driver of standalone runs.
const driverEnv = "LOCKLINT_DRIVER"

// standaloneVet reports whether args ask for a standalone text run that
// go vet can do, and returns the flags to pass on and the packages.
func standaloneVet(args []string, analyzers []*analysis.Analyzer) (flags, patterns []string, ok bool) {
	if os.Getenv(driverEnv) == "inprocess" {
		return nil, nil, false
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
					return nil, nil, false
				}
				i++
				value = args[i]
			}
			flags = append(flags, "-tags="+value)
		case name == "test":
			if hasValue && value != "true" && value != "1" {
				return nil, nil, false // go vet always analyses the tests
			}
		case known && !isBool && !hasValue:
			if i+1 >= len(args) {
				return nil, nil, false
			}
			i++
			flags = append(flags, "-"+name+"="+args[i])
		case known:
			flags = append(flags, a)
		default:
			return nil, nil, false
		}
	}
	for _, p := range patterns {
		if strings.HasSuffix(p, ".cfg") || p == "help" {
			return nil, nil, false
		}
	}
	if len(patterns) == 0 {
		return nil, nil, false
	}
	return flags, patterns, true
}

// runStandaloneVet runs go vet with this executable as the tool and
// prints what it found like the in-process driver.
func runStandaloneVet(flags, patterns []string, analyzers []*analysis.Analyzer, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "locklint: %v\n", err)
		return 1
	}
	res, err := (&vetrun.Runner{Tool: exe}).Run(context.Background(), ".", flags, patterns...)
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
	for _, f := range all {
		fmt.Fprintf(stderr, "%s: %s\n", f.Posn, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(stderr, "%s: \t%s\n", r.Posn, r.Message)
		}
	}
	failed := false
	for _, file := range slices.Sorted(maps.Keys(res.Errors)) {
		for _, msg := range res.Errors[file] {
			fmt.Fprintln(stderr, msg)
			failed = true
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
