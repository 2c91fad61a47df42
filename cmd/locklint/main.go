// Command locklint finds Redis lock bugs in Go code: SETNX then EXPIRE,
// DEL without an ownership check, constant lock values, renewals without an
// owner check, missing fencing tokens.
//
// Usage:
//
//	locklint [flags] ./...                       # report
//	locklint -fix ./...                          # apply suggested fixes
//	locklint -fix -diff ./...                    # show them as a diff
//	locklint -json ./...                         # JSON diagnostics
//	locklint -sarif ./... > locklint.sarif       # SARIF 2.1.0 for code scanning
//	go vet -vettool=$(command -v locklint) ./... # through go vet
//	go fix -fixtool=$(command -v locklint) ./... # through go fix
//	locklint lsp                                 # language server on stdio
//
// A text, -json or -sarif run goes through the go command (go vet
// -vettool=locklint): one package per process, dependencies' facts from the
// build cache, so memory stays bounded and a rerun over unchanged code
// comes from the cache; -fix goes through go fix -fixtool=locklint the same
// way. LOCKLINT_DRIVER=inprocess analyses in this process instead, from
// source in dependency order with bounded memory and nothing compiled (for
// CI runners whose build cache starts empty), as -test=false does.
//
// Each analyzer has a flag of its own name: -lockrelease runs only that
// analyzer (with any others set to true), -lockrelease=false runs all but it.
// `locklint help` lists the analyzers, `locklint help NAME` documents one.
//
// A diagnostic is suppressed by a comment on its line or the line above:
//
//	//locklint:ignore lockrelease the token is checked by the caller
//
// The reason is required; a directive without one suppresses nothing and is
// reported.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/locklint/locklint/analyzers/all"
	"github.com/locklint/locklint/analyzers/suppress"
	"github.com/locklint/locklint/internal/lsp"
)

func main() { run(all.Analyzers()) }

// run is the whole command; tests run it with extra analyzers.
func run(analyzers []*analysis.Analyzer) {
	analyzers = suppress.Wrap(analyzers)
	if isVetUnit(os.Args[1:]) && os.Getenv("GOGC") == "" {
		// One package per process, for a fraction of a second: collecting
		// garbage that the exit frees anyway cost a fifth of the tool's CPU
		// (go-zero under go vet: 44-46 s of user time against 35-38 s with
		// GOGC=400, for 150 against 178 MB peak).
		debug.SetGCPercent(400)
	}
	if len(os.Args) == 2 && os.Args[1] == "lsp" {
		if err := lsp.Serve(context.Background(), os.Stdin, os.Stdout, lsp.Options{Analyzers: analyzers, Log: os.Stderr}); err != nil {
			fmt.Fprintf(os.Stderr, "locklint lsp: %v\n", err)
			os.Exit(1)
		}
		return
	}
	if req, ok := parseStandalone(os.Args[1:], analyzers); ok {
		switch {
		case !req.inProcess:
			os.Exit(runStandaloneVet(req, analyzers, os.Stdout, os.Stderr))
		case req.sarif:
			os.Exit(runSARIF(os.Args[1:], analyzers, os.Stdout, os.Stderr))
		case req.json:
			os.Exit(runJSON(os.Args[1:], analyzers, os.Stdout, os.Stderr))
		}
		os.Exit(runText(os.Args[1:], analyzers, os.Stderr))
	}
	if wantsSARIF(os.Args[1:]) {
		os.Exit(runSARIF(os.Args[1:], analyzers, os.Stdout, os.Stderr))
	}
	if standaloneJSON(os.Args[1:]) {
		os.Exit(runJSON(os.Args[1:], analyzers, os.Stdout, os.Stderr))
	}
	flag.Usage = usage
	// Handled above; defined here so that -help lists it and -sarif=false parses.
	flag.Bool("sarif", false, "write SARIF 2.1.0 to stdout instead of text (not with -fix or go vet)")
	multichecker.Main(analyzers...) // also serves go vet -vettool and go fix -fixtool
}

func usage() {
	prog := filepath.Base(os.Args[0])
	fmt.Fprintf(flag.CommandLine.Output(), `%[1]s finds Redis lock bugs in Go code.

Usage: %[1]s [-flag] [package...]

  %[1]s ./...                 report diagnostics
  %[1]s -fix [-diff] ./...    apply (or show) suggested fixes
  %[1]s -json ./...           diagnostics as JSON
  %[1]s -sarif ./...          diagnostics as SARIF 2.1.0 on stdout
  %[1]s help [analyzer]       list the analyzers or document one
  %[1]s lsp                   run the language server on stdin/stdout

Suppress a diagnostic with a comment on its line or the line above:
  //locklint:ignore <analyzer> <reason>

Flags:
`, prog)
	flag.PrintDefaults()
}

// standaloneJSON reports whether the arguments ask for JSON diagnostics
// of a standalone run: -json without -fix or -diff, and not under go vet
// (which passes a .cfg file and prints its own JSON).
func standaloneJSON(args []string) bool {
	if !hasBoolFlag(args, "json") || hasBoolFlag(args, "fix") || hasBoolFlag(args, "diff") {
		return false
	}
	for _, a := range args {
		if strings.HasSuffix(a, ".cfg") || a == "-V=full" || a == "-flags" {
			return false
		}
	}
	return true
}

// isVetUnit reports whether the go command runs locklint on one package
// (go vet -vettool, go fix -fixtool): the last argument is its .cfg file.
func isVetUnit(args []string) bool {
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// wantsSARIF reports whether the arguments ask for SARIF output. It looks
// at every argument, not just those before the first non-flag, because a
// flag value (-tags x) would stop a naive scan early.
func wantsSARIF(args []string) bool { return hasBoolFlag(args, "sarif") }

// hasBoolFlag reports whether the boolean flag name is set in args.
func hasBoolFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		n, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && n == name {
			return !hasValue || value == "true" || value == "1"
		}
	}
	return false
}
