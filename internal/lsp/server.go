package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/internal/vetrun"
)

// Options configure a Server.
type Options struct {
	// Analyzers are the analyzers the vet tool runs (for their names,
	// documentation URLs and flags).
	Analyzers []*analysis.Analyzer
	// VetTool is the locklint binary go vet runs (default: this executable).
	VetTool string
	// Go is the go command (default "go").
	Go string
	// Debounce is how long a save waits for the next one before the
	// analysis starts (default 50ms).
	Debounce time.Duration
	// Log receives the server's own log lines (default: discarded).
	Log io.Writer
}

// Server is a language server for one client over one connection.
type Server struct {
	conn      *conn
	vet       *vetrun.Runner
	analyzers map[string]*analysis.Analyzer
	debounce  time.Duration
	log       io.Writer

	ctx context.Context // the connection's: ends when the server stops

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	root        string
	cfg         config
	docs        map[string]*document  // open documents, by path
	published   map[string]*published // last diagnostics sent, by path
	runs        map[string]*run       // analyses in flight, by what they analyse
	wg          sync.WaitGroup
}

type document struct {
	version int
	dirty   bool // changed since it was last saved (or opened)
}

// published is what the client was last told about a file: the findings
// and the text their positions refer to.
type published struct {
	text     *text
	findings []vetrun.Finding
	errs     []string
}

type run struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Serve runs the server on r and w until the client sends exit or the
// input ends. It returns nil after shutdown and exit, or an error.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	s, err := newServer(r, w, opts)
	if err != nil {
		return err
	}
	return s.serve(ctx)
}

func newServer(r io.Reader, w io.Writer, opts Options) (*Server, error) {
	tool := opts.VetTool
	if tool == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("lsp: locating the vet tool: %w", err)
		}
		tool = exe
	}
	goCmd := opts.Go
	if goCmd == "" {
		goCmd = "go"
	}
	s := &Server{
		conn:      newConn(r, w),
		vet:       &vetrun.Runner{Tool: tool, Go: goCmd},
		analyzers: map[string]*analysis.Analyzer{},
		debounce:  opts.Debounce,
		log:       opts.Log,
		docs:      map[string]*document{},
		published: map[string]*published{},
		runs:      map[string]*run{},
	}
	if s.debounce == 0 {
		s.debounce = 50 * time.Millisecond
	}
	if s.log == nil {
		s.log = io.Discard
	}
	for _, a := range opts.Analyzers {
		s.analyzers[a.Name] = a
	}
	return s, nil
}

func (s *Server) logf(format string, args ...any) {
	fmt.Fprintf(s.log, "locklint lsp: "+format+"\n", args...)
}

func (s *Server) serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	s.ctx = ctx
	defer func() {
		cancel()
		s.wg.Wait()
	}()
	for {
		m, err := s.conn.read()
		var rerr *rpcError
		switch {
		case errors.As(err, &rerr):
			id := json.RawMessage("null")
			if m != nil && len(m.ID) > 0 {
				id = m.ID
			}
			_ = s.conn.reply(id, nil, rerr)
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		if m.Method == "exit" {
			s.mu.Lock()
			clean := s.shutdown
			s.mu.Unlock()
			if !clean {
				return errors.New("lsp: exit without shutdown")
			}
			return nil
		}
		if len(m.ID) > 0 && m.Method == "" {
			continue // a response to a request of ours (none are sent)
		}
		result, rerr2 := s.handle(ctx, m)
		if m.isRequest() {
			if err := s.conn.reply(m.ID, result, rerr2); err != nil {
				return err
			}
		} else if rerr2 != nil {
			s.logf("%s: %s", m.Method, rerr2.Message)
		}
	}
}

// handle answers one request or notification.
func (s *Server) handle(ctx context.Context, m *message) (any, *rpcError) {
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case m.Method == "initialize":
		return s.initialize(m.Params)
	case !initialized:
		return nil, &rpcError{Code: codeServerNotInitialized, Message: "initialize first"}
	case shutdown:
		return nil, &rpcError{Code: codeInvalidRequest, Message: "the server is shutting down"}
	}
	switch m.Method {
	case "initialized":
		s.analyze(ctx, "./...", "")
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		for _, r := range s.runs {
			r.cancel()
		}
		s.mu.Unlock()
		return nil, nil
	case "textDocument/didOpen":
		var p didOpenParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, badParams(err)
		}
		return nil, s.opened(ctx, p.TextDocument)
	case "textDocument/didChange":
		var p didChangeParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, badParams(err)
		}
		s.changed(p)
		return nil, nil
	case "textDocument/didSave":
		var p didSaveParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, badParams(err)
		}
		return nil, s.saved(ctx, p.TextDocument.URI)
	case "textDocument/didClose":
		var p didCloseParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, badParams(err)
		}
		if path, err := uriPath(p.TextDocument.URI); err == nil {
			s.mu.Lock()
			delete(s.docs, path)
			s.mu.Unlock()
		}
		return nil, nil
	case "textDocument/codeAction":
		var p codeActionParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, badParams(err)
		}
		return s.codeActions(p)
	case "workspace/didChangeConfiguration":
		var p didChangeConfigurationParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, badParams(err)
		}
		if s.configure(p.Settings) {
			s.analyze(ctx, "./...", "")
		}
		return nil, nil
	case "$/cancelRequest", "$/setTrace", "workspace/didChangeWatchedFiles":
		return nil, nil
	}
	if m.isRequest() {
		return nil, &rpcError{Code: codeMethodNotFound, Message: "method not supported: " + m.Method}
	}
	return nil, nil // notifications the server does not use
}

func badParams(err error) *rpcError {
	return &rpcError{Code: codeInvalidParams, Message: err.Error()}
}

func (s *Server) initialize(raw json.RawMessage) (any, *rpcError) {
	var p initializeParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, badParams(err)
	}
	root := ""
	if p.RootURI != "" {
		path, err := uriPath(p.RootURI)
		if err != nil {
			return nil, badParams(err)
		}
		root = path
	}
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, &rpcError{Code: codeInternalError, Message: err.Error()}
		}
		root = wd
	}
	s.mu.Lock()
	s.root, s.initialized = root, true
	s.mu.Unlock()
	s.configure(p.InitializationOptions)
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": "utf-16",
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    1, // full: only dirtiness is tracked
				"save":      map[string]any{"includeText": false},
			},
			"codeActionProvider": map[string]any{"codeActionKinds": []string{"quickfix"}},
		},
		"serverInfo": map[string]any{"name": "locklint", "version": version()},
	}, nil
}

func (s *Server) opened(ctx context.Context, doc textDocumentItem) *rpcError {
	path, err := uriPath(doc.URI)
	if err != nil {
		return badParams(err)
	}
	s.mu.Lock()
	s.docs[path] = &document{version: doc.Version}
	s.mu.Unlock()
	s.analyzeFile(ctx, doc.URI, path)
	return nil
}

func (s *Server) changed(p didChangeParams) {
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		d = &document{}
		s.docs[path] = d
	}
	d.version, d.dirty = p.TextDocument.Version, true
	// The user keeps typing: an analysis of the package on disk is
	// stale before it ends; the next save starts a new one.
	if r := s.runs[filepath.Dir(path)]; r != nil {
		r.cancel()
	}
}

func (s *Server) saved(ctx context.Context, uri string) *rpcError {
	path, err := uriPath(uri)
	if err != nil {
		return badParams(err)
	}
	s.mu.Lock()
	if d := s.docs[path]; d != nil {
		d.dirty = false
	}
	s.mu.Unlock()
	s.analyzeFile(ctx, uri, path)
	return nil
}

// analyzeFile analyses the package of a Go file. A file the server cannot
// analyse gets a diagnostic that says why.
func (s *Server) analyzeFile(ctx context.Context, uri, path string) {
	if !strings.HasSuffix(path, ".go") {
		return
	}
	if _, err := os.Stat(path); err != nil {
		s.publishError(uri, path, fmt.Sprintf("locklint cannot read this file: %v", err))
		return
	}
	s.analyze(ctx, filepath.Dir(path), path)
}

// analyze starts (after the debounce) an analysis of dir's package, or
// of the workspace for "./...", cancelling one of the same already in
// flight. file is the file that asked, for errors that name no file.
func (s *Server) analyze(ctx context.Context, dir, file string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return
	}
	if old := s.runs[dir]; old != nil {
		old.cancel()
	}
	rctx, cancel := context.WithCancel(ctx)
	r := &run{cancel: cancel, done: make(chan struct{})}
	s.runs[dir] = r
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(r.done)
		defer cancel()
		defer func() {
			s.mu.Lock()
			if s.runs[dir] == r {
				delete(s.runs, dir)
			}
			s.mu.Unlock()
		}()
		select {
		case <-time.After(s.debounce):
		case <-rctx.Done():
			return
		}
		s.runVet(rctx, dir, file)
	}()
}

func (s *Server) runVet(ctx context.Context, dir, file string) {
	s.mu.Lock()
	root, flags := s.root, s.cfg.flags()
	s.mu.Unlock()
	pattern, runDir := dir, root
	if dir != "./..." {
		// Run in the package's directory: its module is the one that
		// holds it (a file outside the workspace's module still gets a
		// verdict from its own, or an error saying there is none).
		pattern, runDir = ".", dir
	}
	start := time.Now()
	res, err := s.vet.Run(ctx, runDir, flags, pattern)
	if err != nil {
		if ctx.Err() == nil {
			s.logf("go vet %s: %v", dir, err)
			if file != "" {
				s.publishError(fileURI(file), file, fmt.Sprintf("locklint could not analyze this package: %v", err))
			}
		}
		return
	}
	s.logf("analysed %s in %v", dir, time.Since(start).Round(time.Millisecond))
	s.publish(res, dir, file)
	if dir != "./..." {
		// The packages that import this one: go vet re-analyses those
		// whose dependencies' export data or facts changed, and answers
		// the rest from its cache.
		s.analyze(s.ctx, "./...", "") // not this run's ctx: it ends now
	}
}

// publish sends the findings of a run over dir ("./..." for the whole
// workspace): every file with findings or errors, and an empty list for
// each file of the analysed packages that had some before.
func (s *Server) publish(res *vetrun.Result, dir, file string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	covers := func(path string) bool {
		if dir == "./..." {
			return strings.HasPrefix(path, s.root+string(filepath.Separator))
		}
		return filepath.Dir(path) == dir
	}
	sent := map[string]bool{}
	for path, d := range s.docs {
		if d.dirty {
			// Edited since its last save: findings about the file on
			// disk would land on the wrong lines; its save brings new ones.
			sent[path] = true
		}
	}
	errs := res.Errors
	if general := errs[""]; len(general) > 0 && file != "" {
		errs[file] = append(errs[file], general...)
	}
	for path, fs := range res.Findings {
		if !sent[path] {
			s.sendLocked(path, fs, errs[path])
			sent[path] = true
		}
	}
	for path, msgs := range errs {
		if path != "" && !sent[path] {
			s.sendLocked(path, nil, msgs)
			sent[path] = true
		}
	}
	for path := range s.published {
		if !sent[path] && covers(path) {
			s.sendLocked(path, nil, nil)
		}
	}
}

// sendLocked publishes one file's diagnostics. s.mu is held.
func (s *Server) sendLocked(path string, fs []vetrun.Finding, errs []string) {
	src, _ := os.ReadFile(path)
	if old := s.published[path]; old != nil && string(old.text.src) == string(src) &&
		reflect.DeepEqual(old.findings, fs) && slices.Equal(old.errs, errs) {
		return // the client has these already
	}
	t := newText(src)
	diags := []diagnostic{}
	for _, msg := range errs {
		diags = append(diags, s.errorDiagnostic(t, path, msg))
	}
	for _, f := range fs {
		diags = append(diags, s.diagnostic(t, f))
	}
	if len(fs) == 0 && len(errs) == 0 {
		delete(s.published, path)
	} else {
		s.published[path] = &published{text: t, findings: fs, errs: errs}
	}
	params := publishDiagnosticsParams{URI: fileURI(path), Diagnostics: diags}
	if d := s.docs[path]; d != nil && !d.dirty {
		v := d.version
		params.Version = &v
	}
	if err := s.conn.notify("textDocument/publishDiagnostics", params); err != nil {
		s.logf("publishing diagnostics: %v", err)
	}
}

func (s *Server) publishError(uri, path, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.published, path)
	d := diagnostic{Severity: severityError, Source: "locklint", Code: "error", Message: msg}
	if err := s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Diagnostics: []diagnostic{d}}); err != nil {
		s.logf("publishing diagnostics: %v", err)
	}
}

func (s *Server) diagnostic(t *text, f vetrun.Finding) diagnostic {
	d := diagnostic{
		Range:    s.rangeOf(t, f.Posn, f.End),
		Severity: severityWarning,
		Source:   "locklint",
		Code:     f.Analyzer,
		Message:  f.Message,
	}
	if a := s.analyzers[f.Analyzer]; a != nil && a.URL != "" {
		d.CodeDescription = &codeDesc{Href: a.URL}
	}
	for _, r := range f.Related {
		file, _, _ := vetrun.SplitPosn(r.Posn)
		rt := t
		if file != pathOf(f.Posn) {
			src, _ := os.ReadFile(file)
			rt = newText(src)
		}
		d.RelatedInformation = append(d.RelatedInformation, relatedInfo{
			Location: location{URI: fileURI(file), Range: s.rangeOf(rt, r.Posn, r.End)},
			Message:  r.Message,
		})
	}
	return d
}

// errorDiagnostic is a compiler or go command error: on the line it names,
// or the first line.
func (s *Server) errorDiagnostic(t *text, path, msg string) diagnostic {
	var r lspRange
	if m := vetrun.ErrLine.FindStringSubmatch(msg); m != nil {
		_, line, col := vetrun.SplitPosn(m[1] + ":" + m[2] + ":" + cmp.Or(m[3], "1"))
		r.Start = t.at(line, col)
		r.End = t.at(line, 1<<30)
		msg = m[4]
	}
	return diagnostic{Range: r, Severity: severityError, Source: "locklint", Code: "error",
		Message: "locklint could not analyze this package: " + msg}
}

func (s *Server) rangeOf(t *text, posn, end string) lspRange {
	_, l, c := vetrun.SplitPosn(posn)
	r := lspRange{Start: t.at(l, c)}
	r.End = r.Start
	if _, el, ec := vetrun.SplitPosn(end); el > 0 {
		r.End = t.at(el, ec)
	}
	return r
}

func pathOf(posn string) string {
	file, _, _ := vetrun.SplitPosn(posn)
	return file
}

// uriPath turns a file URI into a path; other schemes are refused.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("URI %q: only file URIs are supported", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
