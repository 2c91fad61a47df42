package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzers/all"
	"github.com/locklint/locklint/analyzers/suppress"
)

// locklintBin is the real command, built once for the package's tests:
// the server runs it as go vet's tool.
var locklintBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "locklint-lsp")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	locklintBin = filepath.Join(dir, "locklint")
	out, err := exec.Command("go", "build", "-o", locklintBin, "github.com/locklint/locklint/cmd/locklint").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building locklint: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// demoModule copies the end-to-end sample module (go-redis lock code with
// known findings) to a temporary directory and returns its root.
func demoModule(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "integration", "redis")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// client is a test LSP client talking to an in-process server over pipes.
type client struct {
	t    testing.TB
	conn *conn
	done chan error

	mu       sync.Mutex
	nextID   int
	replies  map[int]chan *message
	diags    map[string][]publishDiagnosticsParams // by URI, in arrival order
	messages []showMessageParams
	notify   chan struct{} // a notification arrived
}

func startServer(t testing.TB, opts Options) *client {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	if opts.VetTool == "" {
		opts.VetTool = locklintBin
	}
	if opts.Analyzers == nil {
		opts.Analyzers = suppress.Wrap(all.Analyzers())
	}
	c := &client{t: t, conn: newConn(cr, cw), done: make(chan error, 1), replies: map[int]chan *message{},
		diags: map[string][]publishDiagnosticsParams{}, notify: make(chan struct{}, 1)}
	go func() {
		c.done <- Serve(context.Background(), sr, sw, opts)
		_ = sw.Close()
	}()
	go c.readLoop()
	t.Cleanup(func() {
		_ = cw.Close() // the end of input ends Serve
		select {
		case err := <-c.done:
			if err != nil {
				t.Errorf("Serve at the end of its input: %v", err)
			}
		case <-time.After(2 * time.Minute):
			t.Error("the server did not stop at the end of its input")
		}
	})
	return c
}

func (c *client) readLoop() {
	for {
		m, err := c.conn.read()
		if err != nil {
			return
		}
		c.mu.Lock()
		switch {
		case len(m.ID) > 0 && m.Method == "":
			var id int
			_ = json.Unmarshal(m.ID, &id)
			if ch := c.replies[id]; ch != nil {
				ch <- m
			}
		case m.Method == "textDocument/publishDiagnostics":
			var p publishDiagnosticsParams
			_ = json.Unmarshal(m.Params, &p)
			c.diags[p.URI] = append(c.diags[p.URI], p)
		case m.Method == "window/showMessage":
			var p showMessageParams
			_ = json.Unmarshal(m.Params, &p)
			c.messages = append(c.messages, p)
		}
		c.mu.Unlock()
		select {
		case c.notify <- struct{}{}:
		default:
		}
	}
}

// call sends a request and returns its reply.
func (c *client) call(method string, params any) *message {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan *message, 1)
	c.replies[id] = ch
	c.mu.Unlock()
	p, _ := json.Marshal(params)
	if err := c.conn.write(&message{ID: json.RawMessage(fmt.Sprint(id)), Method: method, Params: p}); err != nil {
		c.t.Fatal(err)
	}
	select {
	case m := <-ch:
		return m
	case <-time.After(30 * time.Second):
		c.t.Fatalf("no reply to %s", method)
	}
	return nil
}

func (c *client) send(method string, params any) {
	c.t.Helper()
	if err := c.conn.notify(method, params); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) initialize(root string, options any) {
	c.t.Helper()
	r := c.call("initialize", map[string]any{"rootUri": fileURI(root), "capabilities": map[string]any{}, "initializationOptions": options})
	if r.Error != nil {
		c.t.Fatalf("initialize: %v", r.Error)
	}
	c.send("initialized", map[string]any{})
}

// waitDiags waits for a publication for uri after the first `after`
// ones that satisfies ok, and returns it. The bound only ends a test that
// would hang: on an empty build cache the first analysis compiles
// go-redis and its dependencies first.
func (c *client) waitDiags(uri string, after int, ok func([]diagnostic) bool) (publishDiagnosticsParams, int) {
	c.t.Helper()
	deadline := time.After(5 * time.Minute)
	for {
		c.mu.Lock()
		list := c.diags[uri]
		for i := after; i < len(list); i++ {
			if ok(list[i].Diagnostics) {
				c.mu.Unlock()
				return list[i], i + 1
			}
		}
		c.mu.Unlock()
		select {
		case <-c.notify:
		case <-deadline:
			c.mu.Lock()
			defer c.mu.Unlock()
			c.t.Fatalf("no matching diagnostics for %s; got %d publications: %+v", uri, len(c.diags[uri]), c.diags[uri])
		}
	}
}

func codes(ds []diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%s", d.Range.Start.Line+1, d.Code))
	}
	sort.Strings(out)
	return out
}

func has(ds []diagnostic, line int, code string) bool {
	return slices.Contains(codes(ds), fmt.Sprintf("%d:%s", line, code))
}

// applyEdits applies LSP text edits (UTF-16 positions) to src.
func applyEdits(t testing.TB, src []byte, edits []textEdit) []byte {
	t.Helper()
	tx := newText(src)
	offset := func(p position) int {
		for off := tx.lines[p.Line]; off <= len(src); off++ {
			if tx.offset(off) == p {
				return off
			}
		}
		t.Fatalf("position %+v not in the file", p)
		return 0
	}
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{offset(e.Range.Start), offset(e.Range.End), e.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start > spans[j].start })
	out := slices.Clone(src)
	for _, s := range spans {
		out = append(out[:s.start], append([]byte(s.text), out[s.end:]...)...)
	}
	return out
}

// TestDiagnosticsAndFix: open a file with findings, get its diagnostics
// (source, code, documentation link, related information, the command's
// message), take the fix code action, apply it, save: that diagnostic is
// gone and the others stay.
func TestDiagnosticsAndFix(t *testing.T) {
	root := demoModule(t)
	file := filepath.Join(root, "jobs", "jobs.go")
	uri := fileURI(file)
	c := startServer(t, Options{})
	c.initialize(root, nil)
	src, _ := os.ReadFile(file)
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: string(src)}})
	pub, n := c.waitDiags(uri, 0, func(ds []diagnostic) bool { return has(ds, 36, "lockexpiry") })
	var target diagnostic
	for _, d := range pub.Diagnostics {
		if d.Source != "locklint" || d.Severity != severityWarning || d.Message == "" {
			t.Errorf("diagnostic %+v: want source locklint, a warning, a message", d)
		}
		if d.CodeDescription == nil || !strings.Contains(d.CodeDescription.Href, "/analyzers/"+d.Code+"/") {
			t.Errorf("diagnostic %s: documentation link %+v", d.Code, d.CodeDescription)
		}
		if d.Code == "lockexpiry" && d.Range.Start.Line == 35 {
			target = d
		}
	}
	if !has(pub.Diagnostics, 26, "lockexpiry") || !has(pub.Diagnostics, 58, "lockrelease") {
		t.Errorf("diagnostics %v, want lockexpiry at 26 and lockrelease at 58 too", codes(pub.Diagnostics))
	}
	if has(pub.Diagnostics, 45, "lockexpiry") {
		t.Errorf("the //locklint:ignore'd finding at line 45 was published")
	}
	if len(target.RelatedInformation) == 0 || target.RelatedInformation[0].Location.URI != uri {
		t.Errorf("lockexpiry at 36: related information %+v, want the separate EXPIRE", target.RelatedInformation)
	}

	reply := c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: uri}, Range: target.Range})
	if reply.Error != nil {
		t.Fatal(reply.Error)
	}
	var actions []codeAction
	if err := json.Unmarshal(reply.Result, &actions); err != nil {
		t.Fatal(err)
	}
	var fix, suppressIt *codeAction
	for i, a := range actions {
		switch {
		case a.Kind != "quickfix" || a.Edit == nil:
			t.Errorf("action %+v: want a quickfix with an edit", a)
		case strings.HasPrefix(a.Title, "Suppress lockexpiry"):
			suppressIt = &actions[i]
		case strings.Contains(a.Title, "TTL"):
			fix = &actions[i]
		}
	}
	if fix == nil || suppressIt == nil {
		t.Fatalf("code actions %+v: want the fix and the suppression", actions)
	}
	fixed := applyEdits(t, src, fix.Edit.Changes[uri])
	if !strings.Contains(string(fixed), "SetNX(ctx, key, token, lockTTL)") {
		t.Fatalf("fixed file does not set the TTL in SetNX:\n%s", fixed)
	}
	if err := os.WriteFile(file, fixed, 0o644); err != nil {
		t.Fatal(err)
	}
	c.send("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": string(fixed)}}})
	c.send("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
	after, _ := c.waitDiags(uri, n, func(ds []diagnostic) bool { return !has(ds, 36, "lockexpiry") })
	if !has(after.Diagnostics, 26, "lockexpiry") || after.Version == nil || *after.Version != 2 {
		t.Errorf("after the fix: %v (version %v), want the other findings kept, at version 2", codes(after.Diagnostics), after.Version)
	}
}

// TestSuppressAction: the suppression action inserts a //locklint:ignore
// line with a reason placeholder above the finding, indented like it;
// after a save the finding is gone.
func TestSuppressAction(t *testing.T) {
	root := demoModule(t)
	file := filepath.Join(root, "jobs", "jobs.go")
	uri := fileURI(file)
	c := startServer(t, Options{})
	c.initialize(root, nil)
	src, _ := os.ReadFile(file)
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: string(src)}})
	pub, n := c.waitDiags(uri, 0, func(ds []diagnostic) bool { return has(ds, 58, "lockrelease") })
	var d diagnostic
	for _, x := range pub.Diagnostics {
		if x.Code == "lockrelease" && x.Range.Start.Line == 57 {
			d = x
		}
	}
	reply := c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: uri}, Range: d.Range})
	var actions []codeAction
	if err := json.Unmarshal(reply.Result, &actions); err != nil {
		t.Fatal(err)
	}
	var edits []textEdit
	for _, a := range actions {
		if strings.HasPrefix(a.Title, "Suppress lockrelease") {
			edits = a.Edit.Changes[uri]
		}
	}
	if len(edits) != 1 {
		t.Fatalf("actions %+v: want one suppression edit", actions)
	}
	out := applyEdits(t, src, edits)
	lines := strings.Split(string(out), "\n")
	if got := lines[57]; got != "\t//locklint:ignore lockrelease TODO: say why this is safe" {
		t.Fatalf("line 58 after the action: %q", got)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	c.send("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
	c.waitDiags(uri, n, func(ds []diagnostic) bool { return !has(ds, 59, "lockrelease") && has(ds, 26, "lockexpiry") })
}

// TestConfiguration: settings disable an analyzer (by the command's flag
// name); unknown names are reported to the user, not ignored silently.
func TestConfiguration(t *testing.T) {
	root := demoModule(t)
	file := filepath.Join(root, "jobs", "jobs.go")
	uri := fileURI(file)
	c := startServer(t, Options{})
	c.initialize(root, map[string]any{"locklint": map[string]any{"analyzers": map[string]any{"lockvalue": false}}})
	src, _ := os.ReadFile(file)
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: string(src)}})
	pub, n := c.waitDiags(uri, 0, func(ds []diagnostic) bool { return has(ds, 26, "lockexpiry") })
	if has(pub.Diagnostics, 26, "lockvalue") {
		t.Errorf("lockvalue disabled but reported: %v", codes(pub.Diagnostics))
	}
	c.send("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"locklint": map[string]any{
		"analyzers": map[string]any{"nosuch": false},
		"settings":  map[string]any{"lockfence": map[string]any{"nosuchflag": 1}},
	}}})
	c.waitDiags(uri, n, func(ds []diagnostic) bool { return has(ds, 26, "lockvalue") })
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.messages) == 0 || !strings.Contains(c.messages[0].Message, `unknown analyzer "nosuch"`) || !strings.Contains(c.messages[0].Message, `unknown setting "nosuchflag"`) {
		t.Errorf("messages %+v: want the unknown names reported", c.messages)
	}
}

// TestBadInput: requests before initialize, unknown methods, bad params
// and broken JSON get errors; a file that does not exist, one outside any
// module and a package that does not type-check get a diagnostic saying
// so; the server keeps serving, and exits cleanly after shutdown.
func TestBadInput(t *testing.T) {
	c := startServer(t, Options{})
	if r := c.call("textDocument/codeAction", map[string]any{}); r.Error == nil || r.Error.Code != codeServerNotInitialized {
		t.Errorf("before initialize: %+v, want error %d", r.Error, codeServerNotInitialized)
	}
	root := demoModule(t)
	c.initialize(root, nil)
	if r := c.call("textDocument/hover", map[string]any{}); r.Error == nil || r.Error.Code != codeMethodNotFound {
		t.Errorf("unknown method: %+v, want %d", r.Error, codeMethodNotFound)
	}
	if r := c.call("textDocument/codeAction", "not an object"); r.Error == nil || r.Error.Code != codeInvalidParams {
		t.Errorf("bad params: %+v, want %d", r.Error, codeInvalidParams)
	}
	if r := c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: "untitled:Untitled-1"}}); r.Error == nil || r.Error.Code != codeInvalidParams {
		t.Errorf("non-file URI: %+v, want %d", r.Error, codeInvalidParams)
	}
	// Broken JSON in a well-framed message: a parse error, and the stream goes on.
	c.conn.mu.Lock()
	_, err := fmt.Fprintf(c.conn.w, "Content-Length: 5\r\n\r\n{oops")
	c.conn.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}

	missing := filepath.Join(root, "jobs", "missing.go")
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: fileURI(missing), Version: 1}})
	c.waitDiags(fileURI(missing), 0, func(ds []diagnostic) bool {
		return len(ds) == 1 && ds[0].Severity == severityError && strings.Contains(ds[0].Message, "cannot read")
	})

	outside := filepath.Join(t.TempDir(), "loose.go")
	if err := os.WriteFile(outside, []byte("package loose\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: fileURI(outside), Version: 1}})
	c.waitDiags(fileURI(outside), 0, func(ds []diagnostic) bool {
		return len(ds) == 1 && strings.Contains(ds[0].Message, "could not analyze") && strings.Contains(ds[0].Message, "go.mod")
	})

	broken := filepath.Join(root, "jobs", "broken.go")
	if err := os.WriteFile(broken, []byte("package jobs\n\nfunc broken() int {\n\treturn \"x\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: fileURI(broken), Version: 1}})
	pub, _ := c.waitDiags(fileURI(broken), 0, func(ds []diagnostic) bool {
		return len(ds) > 0 && strings.Contains(ds[0].Message, "could not analyze this package")
	})
	if d := pub.Diagnostics[0]; d.Range.Start.Line != 3 || d.Severity != severityError {
		t.Errorf("type error diagnostic %+v, want an error on line 4", d)
	}

	if r := c.call("shutdown", nil); r.Error != nil {
		t.Fatal(r.Error)
	}
	c.send("exit", nil)
	if err := c.exited(); err != nil {
		t.Errorf("exit after shutdown: %v", err)
	}
}

// TestExitWithoutShutdown: exit before shutdown ends Serve with an error
// (the protocol's exit code 1).
func TestExitWithoutShutdown(t *testing.T) {
	c := startServer(t, Options{})
	c.send("exit", nil)
	if err := c.exited(); err == nil {
		t.Error("exit without shutdown: nil error")
	}
}

// exited waits for Serve to return and gives its error; the cleanup then
// finds the server stopped.
func (c *client) exited() error {
	c.t.Helper()
	select {
	case err := <-c.done:
		c.done <- nil
		return err
	case <-time.After(30 * time.Second):
		c.t.Fatal("the server did not exit")
	}
	return nil
}

// TestEditMakesActionsStale: after an unsaved edit, code actions are not
// offered (their positions refer to the file as analysed).
func TestEditMakesActionsStale(t *testing.T) {
	root := demoModule(t)
	file := filepath.Join(root, "jobs", "jobs.go")
	uri := fileURI(file)
	c := startServer(t, Options{})
	c.initialize(root, nil)
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1}})
	pub, _ := c.waitDiags(uri, 0, func(ds []diagnostic) bool { return has(ds, 36, "lockexpiry") })
	rng := pub.Diagnostics[0].Range
	count := func() int {
		var actions []codeAction
		if err := json.Unmarshal(c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: uri}, Range: rng}).Result, &actions); err != nil {
			t.Fatal(err)
		}
		return len(actions)
	}
	if count() == 0 {
		t.Fatal("no code actions on a saved file")
	}
	c.send("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": "x"}}})
	if n := count(); n != 0 {
		t.Errorf("%d code actions on a file with unsaved changes, want 0", n)
	}
}

// TestImportersReanalysed: a save that changes what a package exports to
// its importers (here: a helper stops deleting the key, so the facts
// about it change) updates the diagnostics of an importer that is not
// open, without the importer being saved.
func TestImportersReanalysed(t *testing.T) {
	root := demoModule(t)
	write := func(rel, src string) string {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const store = `package locker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb redis.UniversalClient }

func (s *Store) Put(ctx context.Context, key, val string) bool {
	return s.rdb.SetNX(ctx, key, val, time.Minute).Val()
}

func (s *Store) Drop(ctx context.Context, key string) {
	s.rdb.Del(ctx, key)
}
`
	lockerFile := write("locker/locker.go", store)
	appFile := write("app/app.go", `package app

import (
	"context"

	"example.com/redisdemo/locker"
)

func Run(ctx context.Context, s *locker.Store, token string) {
	if !s.Put(ctx, "app:leader", token) {
		return
	}
	defer s.Drop(ctx, "app:leader")
}
`)
	c := startServer(t, Options{})
	c.initialize(root, nil)
	appURI := fileURI(appFile)
	_, n := c.waitDiags(appURI, 0, func(ds []diagnostic) bool { return has(ds, 13, "lockrelease") })

	// Drop no longer deletes anything.
	write("locker/locker.go", strings.Replace(store, "\ts.rdb.Del(ctx, key)\n", "\t_, _ = ctx, key\n", 1))
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: fileURI(lockerFile), Version: 1}})
	c.send("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: fileURI(lockerFile)}})
	c.waitDiags(appURI, n, func(ds []diagnostic) bool { return len(ds) == 0 })
}

// TestEditCancelsRun: an edit while a save's analysis waits or runs
// cancels it (its result would be stale), and no run publishes for a file
// with unsaved changes; the next save analyses again. didClose,
// $/cancelRequest, $/setTrace and didChangeWatchedFiles are taken without
// a reply.
func TestEditCancelsRun(t *testing.T) {
	root := demoModule(t)
	file := filepath.Join(root, "jobs", "jobs.go")
	uri := fileURI(file)
	c := startServer(t, Options{Debounce: 2 * time.Second})
	c.initialize(root, nil)
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1}})
	_, n := c.waitDiags(uri, 0, func(ds []diagnostic) bool { return has(ds, 36, "lockexpiry") })
	c.send("$/cancelRequest", map[string]any{"id": 99})
	c.send("$/setTrace", map[string]any{"value": "off"})
	c.send("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{}})

	// A save that moves the finding, then at once an edit: no publication.
	src, _ := os.ReadFile(file)
	if err := os.WriteFile(file, append([]byte("// moved\n"), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	c.send("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
	c.send("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": "x"}}})
	time.Sleep(4 * time.Second)
	c.mu.Lock()
	for _, p := range c.diags[uri][n:] {
		if has(p.Diagnostics, 37, "lockexpiry") {
			t.Errorf("the cancelled run published: %v", codes(p.Diagnostics))
		}
	}
	c.mu.Unlock()

	c.send("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
	c.waitDiags(uri, n, func(ds []diagnostic) bool { return has(ds, 37, "lockexpiry") })
	c.send("textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: uri}})
	if r := c.call("shutdown", nil); r.Error != nil {
		t.Fatalf("shutdown after didClose: %v", r.Error)
	}
}

// TestNullConfigurationKeepsSettings: a didChangeConfiguration with null
// or absent settings (a client asking to be asked) keeps what
// initializationOptions set.
func TestNullConfigurationKeepsSettings(t *testing.T) {
	s, err := newServer(strings.NewReader(""), io.Discard, Options{VetTool: locklintBin, Analyzers: suppress.Wrap(all.Analyzers())})
	if err != nil {
		t.Fatal(err)
	}
	if !s.configure(json.RawMessage(`{"locklint": {"analyzers": {"lockvalue": false}}}`)) {
		t.Fatal("settings not applied")
	}
	for _, raw := range []string{"null", "", " null "} {
		if s.configure(json.RawMessage(raw)) {
			t.Errorf("settings %q reported as a change", raw)
		}
		if enabled, ok := s.cfg.Analyzers["lockvalue"]; !ok || enabled {
			t.Errorf("after settings %q: analyzers %v, want lockvalue still disabled", raw, s.cfg.Analyzers)
		}
	}
	if !s.configure(json.RawMessage(`{}`)) || len(s.cfg.Analyzers) != 0 {
		t.Errorf("empty settings: analyzers %v, want the defaults back", s.cfg.Analyzers)
	}
}
