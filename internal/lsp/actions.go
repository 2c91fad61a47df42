package lsp

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/locklint/locklint/internal/vetrun"
)

// codeActions offers, for each vetrun.Finding on the requested range, its
// suggested fixes as quickfixes and a quickfix that suppresses it with a
// //locklint:ignore comment on the line above. A file changed since its
// analysis gets none: the edits' positions would be stale.
func (s *Server) codeActions(p codeActionParams) (any, *rpcError) {
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil, badParams(err)
	}
	if len(p.Context.Only) > 0 && !wantsQuickfix(p.Context.Only) {
		return []codeAction{}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	pub := s.published[path]
	if pub == nil || s.docs[path] != nil && s.docs[path].dirty {
		return []codeAction{}, nil
	}
	actions := []codeAction{}
	for _, f := range pub.findings {
		d := s.diagnostic(pub.text, f)
		if !overlaps(d.Range, p.Range) {
			continue
		}
		for _, fix := range f.Fixes {
			edit, ok := s.fixEdit(path, pub.text, fix)
			if !ok {
				continue
			}
			actions = append(actions, codeAction{Title: fix.Message, Kind: "quickfix", Diagnostics: []diagnostic{d}, IsPreferred: true, Edit: edit})
		}
		actions = append(actions, s.suppressAction(path, pub.text, f, d))
	}
	return actions, nil
}

func wantsQuickfix(only []string) bool {
	for _, k := range only {
		if k == "quickfix" || k == "" {
			return true
		}
	}
	return false
}

// overlaps reports whether two ranges share a line (clients ask for the
// cursor's position, an empty range, or for a selection).
func overlaps(a, b lspRange) bool {
	return a.Start.Line <= b.End.Line && b.Start.Line <= a.End.Line
}

// fixEdit turns a suggested fix into a WorkspaceEdit. Edits in other
// files are converted with those files' content on disk; a fix touching
// a file open with unsaved changes is not offered.
func (s *Server) fixEdit(path string, t *text, fix vetrun.Fix) (*workspaceEdit, bool) {
	texts := map[string]*text{path: t}
	we := &workspaceEdit{Changes: map[string][]textEdit{}}
	for _, e := range fix.Edits {
		file := filepath.Clean(e.Filename)
		ft := texts[file]
		if ft == nil {
			if d := s.docs[file]; d != nil && d.dirty {
				return nil, false
			}
			src, err := os.ReadFile(file)
			if err != nil {
				return nil, false
			}
			ft = newText(src)
			texts[file] = ft
		}
		if e.Start < 0 || e.End < e.Start || e.End > len(ft.src) {
			return nil, false
		}
		uri := fileURI(file)
		we.Changes[uri] = append(we.Changes[uri], textEdit{Range: lspRange{Start: ft.offset(e.Start), End: ft.offset(e.End)}, NewText: e.New})
	}
	return we, len(we.Changes) > 0
}

// suppressAction inserts "//locklint:ignore NAME <reason>" above the
// vetrun.Finding's line, indented like it, with a placeholder reason to replace.
func (s *Server) suppressAction(path string, t *text, f vetrun.Finding, d diagnostic) codeAction {
	start, indent := t.lineStart(d.Range.Start.Line)
	at := t.offset(start)
	comment := fmt.Sprintf("%s//locklint:ignore %s TODO: say why this is safe\n", indent, f.Analyzer)
	return codeAction{
		Title:       fmt.Sprintf("Suppress %s here with //locklint:ignore", f.Analyzer),
		Kind:        "quickfix",
		Diagnostics: []diagnostic{d},
		Edit: &workspaceEdit{Changes: map[string][]textEdit{
			fileURI(path): {{Range: lspRange{Start: at, End: at}, NewText: comment}},
		}},
	}
}
