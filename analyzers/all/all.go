// Package all lists every locklint analyzer. The locklint command, go vet,
// the golangci-lint plugin and the SARIF rule metadata all take their
// analyzers from here, so they can never disagree.
package all

import (
	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/lockexpiry"
	"github.com/locklint/locklint/analyzers/lockfence"
	"github.com/locklint/locklint/analyzers/locklease"
	"github.com/locklint/locklint/analyzers/lockrelease"
	"github.com/locklint/locklint/analyzers/lockrenew"
	"github.com/locklint/locklint/analyzers/lockresult"
	"github.com/locklint/locklint/analyzers/lockunits"
	"github.com/locklint/locklint/analyzers/lockvalue"
)

// Analyzers returns every locklint analyzer, in a stable order.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		// Alphabetical; add a new analyzer in its place.
		lockexpiry.Analyzer,
		lockfence.Analyzer,
		locklease.Analyzer,
		lockrelease.Analyzer,
		lockrenew.Analyzer,
		lockresult.Analyzer,
		lockunits.Analyzer,
		lockvalue.Analyzer,
	}
}
