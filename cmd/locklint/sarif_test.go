package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/locklint/locklint/analyzers/all"
)

// sarifSchema compiles the vendored official SARIF 2.1.0 schema.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(t *testing.T, sch *jsonschema.Schema, out string) *sarifLog {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("output does not match the SARIF 2.1.0 schema: %v\n%s", err, out)
	}
	var log sarifLog
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(log.Runs))
	}
	return &log
}

func TestSchemaRejectsInvalidLogs(t *testing.T) {
	sch := sarifSchema(t)
	for _, bad := range []string{
		`{"version": "2.0.0", "runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}]}]}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("schema accepted an invalid log: %s", bad)
		}
	}
}

func TestSARIF(t *testing.T) {
	dir := sample(t, "sample")
	stdout, stderr, code := locklint(t, dir, "-sarif", "./...")
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	log := validate(t, sarifSchema(t), stdout)
	run := log.Runs[0]

	// One rule per analyzer, from the analyzer's own documentation.
	analyzers := append(all.Analyzers(), lockdemo)
	if len(run.Tool.Driver.Rules) != len(analyzers) {
		t.Errorf("got %d rules, want %d", len(run.Tool.Driver.Rules), len(analyzers))
	}
	for i, a := range analyzers {
		if i >= len(run.Tool.Driver.Rules) {
			break
		}
		r := run.Tool.Driver.Rules[i]
		if r.ID != a.Name || r.FullDescription.Text != a.Doc || r.HelpURI != a.URL || r.ShortDescription.Text == "" || strings.Contains(r.ShortDescription.Text, "\n") {
			t.Errorf("rule %d = %+v, does not describe %s", i, r, a.Name)
		}
	}
	if r := run.Tool.Driver.Rules[len(analyzers)-1]; r.ShortDescription.Text != "reports calls of DelLock" {
		t.Errorf("lockdemo short description %q, want the Doc's first paragraph", r.ShortDescription.Text)
	}
	if run.ColumnKind != "utf16CodeUnits" || !strings.HasSuffix(run.OriginalURIBaseIDs[srcRoot].URI, "/") {
		t.Errorf("columnKind %q, SRCROOT %q", run.ColumnKind, run.OriginalURIBaseIDs[srcRoot].URI)
	}

	type where struct{ line, col, endLine, endCol int }
	want := map[where]string{
		{12, 6, 12, 18}:  "DelLock deletes",
		{16, 16, 16, 28}: "DelLock deletes", // "ü😀" before it: 6 bytes, 3 UTF-16 units
		{25, 2, 25, 28}:  "needs a reason",
		{26, 6, 26, 18}:  "DelLock deletes",
	}
	if len(run.Results) != len(want) {
		t.Errorf("got %d results, want %d", len(run.Results), len(want))
	}
	src, err := os.ReadFile(filepath.Join(dir, "sample.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		reg := loc.Region
		w := where{reg.StartLine, reg.StartColumn, reg.EndLine, reg.EndColumn}
		if msg, ok := want[w]; !ok || !strings.Contains(r.Message.Text, msg) {
			t.Errorf("unexpected result %s at %+v: %s", r.RuleID, w, r.Message.Text)
			continue
		}
		if loc.ArtifactLocation.URI != "sample.go" || loc.ArtifactLocation.URIBaseID != srcRoot || r.RuleID != "lockdemo" || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result at %+v: location %+v, rule %s (index %d)", w, loc.ArtifactLocation, r.RuleID, r.RuleIndex)
		}
		if !strings.HasPrefix(r.Message.Text, "DelLock") {
			continue
		}
		if len(r.RelatedLocations) != 1 || r.RelatedLocations[0].Message.Text != "DelLock is declared here" ||
			r.RelatedLocations[0].PhysicalLocation.Region != (sarifRegion{6, 6, 6, 13}) {
			t.Errorf("result at %+v: related locations %+v", w, r.RelatedLocations)
		}
		// Applying the SARIF fix must give what -fix gives.
		if len(r.Fixes) != 1 || len(r.Fixes[0].ArtifactChanges) != 1 || r.Fixes[0].Description.Text != "Call ReleaseLock" {
			t.Fatalf("result at %+v: fixes %+v", w, r.Fixes)
		}
		got := applyReplacements(t, src, r.Fixes[0].ArtifactChanges[0].Replacements)
		line := strings.Split(string(got), "\n")[reg.StartLine-1]
		if !strings.Contains(line, `ReleaseLock("`) || strings.Contains(line, "DelLock") {
			t.Errorf("result at %+v: the fix gives line %q", w, line)
		}
	}
}

// applyReplacements applies SARIF replacements (UTF-16 columns) to src.
func applyReplacements(t *testing.T, src []byte, reps []sarifReplacement) []byte {
	t.Helper()
	lines := bytes.SplitAfter(src, []byte("\n"))
	offset := func(line, col int) int {
		off := 0
		for _, l := range lines[:line-1] {
			off += len(l)
		}
		units := 0
		for b := lines[line-1]; units < col-1; {
			r, size := utf8.DecodeRune(b)
			units += utf16.RuneLen(r)
			off += size
			b = b[size:]
		}
		return off
	}
	out := src
	for i := len(reps) - 1; i >= 0; i-- { // assumes replacements in order
		d := reps[i].DeletedRegion
		start, end := offset(d.StartLine, d.StartColumn), offset(d.EndLine, d.EndColumn)
		var ins []byte
		if reps[i].InsertedContent != nil {
			ins = []byte(reps[i].InsertedContent.Text)
		}
		out = append(append(append([]byte{}, out[:start]...), ins...), out[end:]...)
	}
	return out
}

func TestSARIFPackageErrors(t *testing.T) {
	dir := sample(t, "broken")
	stdout, _, code := locklint(t, dir, "-sarif", "./...")
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	run := validate(t, sarifSchema(t), stdout).Runs[0]
	inv := run.Invocations[0]
	if inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) == 0 ||
		!strings.Contains(inv.ToolExecutionNotifications[0].Message.Text, "undefined: undefinedThing") {
		t.Errorf("invocation %+v does not report the type error", inv)
	}
}

func TestWantsSARIF(t *testing.T) {
	for args, want := range map[string]bool{
		"-sarif ./...":           true,
		"--sarif ./...":          true,
		"-sarif=true ./...":      true,
		"-tags x -sarif ./...":   true,
		"-sarif=false ./...":     false,
		"-- -sarif":              false,
		"-json ./...":            false,
		"-lockdemo -sarif ./...": true,
	} {
		if got := wantsSARIF(strings.Fields(args)); got != want {
			t.Errorf("wantsSARIF(%s) = %v, want %v", args, got, want)
		}
	}
}
