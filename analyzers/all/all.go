// Package all lists every locklint analyzer. The locklint command, go vet,
// the golangci-lint plugin and the SARIF rule metadata all take their
// analyzers from here, so they can never disagree.
package all

import "golang.org/x/tools/go/analysis"

import "github.com/locklint/locklint/analyzers/lockexpiry"

import "github.com/locklint/locklint/analyzers/lockfence"

import "github.com/locklint/locklint/analyzers/locklease"

import "github.com/locklint/locklint/analyzers/lockrelease"

import "github.com/locklint/locklint/analyzers/lockrenew"

import "github.com/locklint/locklint/analyzers/lockresult"

import "github.com/locklint/locklint/analyzers/lockvalue"

import "github.com/locklint/locklint/analyzers/lockunits"

// Analyzers returns every locklint analyzer, in a stable order.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		// Each analyzer package adds itself here, one line each.
		lockexpiry.Analyzer,
		lockfence.Analyzer,
		locklease.Analyzer,
		lockrelease.Analyzer,
		lockrenew.Analyzer,
		lockresult.Analyzer,
		lockvalue.Analyzer,
		lockunits.Analyzer,
	}
}
