//go:build locklint_e2e

package main

// This file is built only into the binary the end-to-end tests use
// (.ci/golangci-lint builds with -tags locklint_e2e). It adds "lockdemo"
// beside the real analyzers: a stand-in that reports calls of DelLock and
// fixes them to call the function named by its "replacement" setting, so
// the tests can check suppression, settings and --fix on a linter whose
// output never changes when the real analyzers do.

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/plugin"
)

func init() {
	a := &analysis.Analyzer{Name: "lockdemo", Doc: "reports calls of DelLock"}
	replacement := a.Flags.String("replacement", "ReleaseKey", "function to call instead")
	a.Run = func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "DelLock" {
					pass.Report(analysis.Diagnostic{
						Pos: call.Pos(), End: call.End(),
						Message: "DelLock deletes the lock without an ownership check",
						SuggestedFixes: []analysis.SuggestedFix{{
							Message:   "Call " + *replacement,
							TextEdits: []analysis.TextEdit{{Pos: id.Pos(), End: id.End(), NewText: []byte(*replacement)}},
						}},
					})
				}
				return true
			})
		}
		return nil, nil
	}
	plugin.Register(a)
}
