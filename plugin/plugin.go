// Package plugin registers the locklint analyzers as golangci-lint v2
// module plugins, one linter per analyzer, so that golangci-lint can enable,
// configure and //nolint each of them by its own name.
//
// Importing the package registers every analyzer of all.Analyzers() with
// //locklint:ignore suppression applied (see package suppress). Build a
// golangci-lint binary that contains it with `golangci-lint custom` and the
// repository's .custom-gcl.yml, or offline from tools/golangci.
//
// Each linter's settings are the analyzer's flags, by name:
//
//	linters:
//	  settings:
//	    custom:
//	      lockrelease:
//	        type: module
//	        settings:
//	          someflag: "value"
package plugin

import (
	"flag"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/all"
	"github.com/locklint/locklint/analyzers/suppress"
	settingvalue "github.com/locklint/locklint/internal/settings"
)

func init() {
	Register(all.Analyzers()...)
}

// Register registers analyzers as golangci-lint module plugins, one per
// analyzer name, with //locklint:ignore suppression applied. The package
// registers the locklint analyzers itself; Register is for programs that
// build a golangci-lint binary with analyzers of their own beside them.
func Register(analyzers ...*analysis.Analyzer) {
	for _, a := range suppress.Wrap(analyzers) {
		foldRelated(a)
		register.Plugin(a.Name, func(settings any) (register.LinterPlugin, error) {
			return newLinter(a, settings)
		})
	}
}

// foldRelated makes a (a copy made by suppress.Wrap, so ours to change)
// write each diagnostic's related positions into its message.
// golangci-lint would report each related position as an issue of its own,
// which a //nolint on the diagnostic's line does not silence.
func foldRelated(a *analysis.Analyzer) {
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		inner := *pass
		inner.Report = func(d analysis.Diagnostic) {
			var notes []string
			for _, r := range d.Related {
				p := pass.Fset.Position(r.Pos)
				notes = append(notes, fmt.Sprintf("%s at %s:%d", r.Message, filepath.Base(p.Filename), p.Line))
			}
			if len(notes) > 0 {
				d.Message += " (" + strings.Join(notes, "; ") + ")"
				d.Related = nil
			}
			pass.Report(d)
		}
		return run(&inner)
	}
}

// linter is one analyzer as a golangci-lint plugin.
type linter struct{ a *analysis.Analyzer }

// newLinter applies the linter's settings to the analyzer's flags.
// Unknown settings are an error, so a typo does not silently do nothing.
func newLinter(a *analysis.Analyzer, settings any) (*linter, error) {
	if settings != nil {
		m, err := register.DecodeSettings[map[string]any](settings)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		for _, name := range slices.Sorted(maps.Keys(m)) {
			f := a.Flags.Lookup(name)
			if f == nil {
				return nil, fmt.Errorf("%s: unknown setting %q (settings are the analyzer's flags: %s)", a.Name, name, flagNames(a))
			}
			s, ok := settingvalue.FlagValue(m[name])
			if !ok {
				return nil, fmt.Errorf("%s: setting %q: want a string, number, boolean or list, got %T", a.Name, name, m[name])
			}
			if err := f.Value.Set(s); err != nil {
				return nil, fmt.Errorf("%s: setting %q: %w", a.Name, name, err)
			}
		}
	}
	return &linter{a: a}, nil
}

func flagNames(a *analysis.Analyzer) string {
	var names []string
	a.Flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// BuildAnalyzers returns the one analyzer this linter runs.
func (l *linter) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{l.a}, nil
}

// GetLoadMode asks golangci-lint for type information: the analyzers
// recognise Redis clients by type.
func (l *linter) GetLoadMode() string { return register.LoadModeTypesInfo }
