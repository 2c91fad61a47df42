// Command golangci-lint is golangci-lint v2 with the locklint analyzers
// built in as module plugins (package plugin), one linter per analyzer.
//
// It is what `golangci-lint custom` produces from .custom-gcl.yml, built
// from the Go module proxy alone: go build -o golangci-lint-locklint .
// It lives in its own module so that golangci-lint's dependencies stay out
// of locklint's go.mod.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/locklint/locklint/plugin" // registers the locklint linters
)

func main() {
	if err := commands.Execute(buildInfo()); err != nil {
		fmt.Fprintf(os.Stderr, "golangci-lint: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo reports the golangci-lint version this binary was built from,
// marked as carrying locklint.
func buildInfo() commands.BuildInfo {
	info := commands.BuildInfo{Version: "unknown", Commit: "locklint", Date: "(unknown)", GoVersion: "unknown"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	info.GoVersion = bi.GoVersion
	for _, dep := range bi.Deps {
		switch dep.Path {
		case "github.com/golangci/golangci-lint/v2":
			info.Version = strings.TrimPrefix(dep.Version, "v") + "-locklint"
		case "github.com/locklint/locklint":
			info.Commit = "locklint " + dep.Version
		}
	}
	return info
}
