// Package lsp is locklint's language server (`locklint lsp`): diagnostics
// on open and save of a Go file, and code actions that apply an
// analyzer's suggested fix or suppress a finding, in any editor with an
// LSP client.
//
// The analysis goes through the go command: the server runs
// `go vet -vettool=<locklint> -json` on the saved file's package, so it
// analyses exactly as `go vet -vettool` and the command do (same
// analyzers, flags and //locklint:ignore handling), one package per
// process, with every dependency's facts computed once and kept in the go
// command's build cache. A save re-analyses the saved package; the
// analyses of other packages come from the cache until something they
// depend on changes. A new save of the same package, or an edit, cancels
// a run in flight.
//
// The protocol layer (base-protocol framing and JSON-RPC 2.0) is this
// package's own, a few hundred lines: the server needs a handful of
// requests, gopls's protocol package is internal to x/tools, and the
// public LSP libraries for Go either pull in a large dependency tree or
// are no longer maintained; none is in this module's dependencies.
//
// Positions are UTF-16 code units, the protocol's default, converted from
// the byte columns go vet reports using the file's content as analysed.
// Settings (initializationOptions or workspace/didChangeConfiguration,
// under "locklint") enable or disable analyzers and set their flags by the
// same names as the command line and the golangci-lint settings.
package lsp
