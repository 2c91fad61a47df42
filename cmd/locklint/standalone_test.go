package main

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzers/all"
)

// TestStandaloneArgs: which standalone runs go through go vet, which run
// in process, the flags they pass on; the rest go to the multichecker.
func TestStandaloneArgs(t *testing.T) {
	analyzers := append(all.Analyzers(), lockdemo)
	for _, tc := range []struct {
		args      []string
		flags     []string
		patterns  []string
		viaGoVet  bool
		json      bool
		sarif     bool
		inProcess bool
		fix       bool
		diff      bool
	}{
		{args: []string{"./..."}, patterns: []string{"./..."}, viaGoVet: true},
		{args: []string{"-lockvalue=false", "--lockdemo", "./a", "./b"}, flags: []string{"-lockvalue=false", "--lockdemo"}, patterns: []string{"./a", "./b"}, viaGoVet: true},
		{args: []string{"-tags", "integration", "-test", "./..."}, flags: []string{"-tags=integration"}, patterns: []string{"./..."}, viaGoVet: true},
		{args: []string{"-test=false", "./..."}, patterns: []string{"./..."}, viaGoVet: true, inProcess: true}, // go vet always analyses tests
		{args: []string{"-json", "./..."}, patterns: []string{"./..."}, viaGoVet: true, json: true},
		{args: []string{"-json", "-test=false", "./..."}, patterns: []string{"./..."}, viaGoVet: true, json: true, inProcess: true},
		{args: []string{"-sarif", "-lockvalue=false", "./..."}, flags: []string{"-lockvalue=false"}, patterns: []string{"./..."}, viaGoVet: true, sarif: true},
		{args: []string{"-sarif", "-test=false", "./..."}, patterns: []string{"./..."}, viaGoVet: true, sarif: true, inProcess: true},
		{args: []string{"-fix", "-test=false", "./..."}}, // the multichecker
		{args: []string{"-sarif", "-json", "./..."}},     // the in-process driver says what it means
		{args: []string{"-sarif", "-fix", "./..."}},
		{args: []string{"-fix", "./..."}, patterns: []string{"./..."}, viaGoVet: true, fix: true},
		{args: []string{"-fix", "-diff", "./..."}, patterns: []string{"./..."}, viaGoVet: true, fix: true, diff: true},
		{args: []string{"-diff", "./..."}},          // -diff alone: the in-process driver says what it means
		{args: []string{"-fix", "-json", "./..."}},  // in process
		{args: []string{"-c", "2", "./..."}},        // context lines
		{args: []string{"-nosuchflag", "./..."}},    // the in-process driver reports it
		{args: []string{"-lockvalue=false"}},        // no packages
		{args: []string{"help"}},                    // help
		{args: []string{"-V=full"}},                 // go vet's questions
		{args: []string{"-json", "/tmp/x/vet.cfg"}}, // go vet's unit
		{args: []string{"-tags"}},                   // a flag without its value
	} {
		req, ok := parseStandalone(tc.args, analyzers)
		if ok != tc.viaGoVet || !slices.Equal(req.flags, tc.flags) || !slices.Equal(req.patterns, tc.patterns) || req.json != tc.json || req.sarif != tc.sarif || req.inProcess != tc.inProcess || req.fix != tc.fix || req.diff != tc.diff {
			t.Errorf("%q: via go vet %v, %+v; want %v %q %q json=%v", tc.args, ok, req, tc.viaGoVet, tc.flags, tc.patterns, tc.json)
		}
	}
	t.Setenv(driverEnv, "inprocess")
	if req, ok := parseStandalone([]string{"./..."}, analyzers); !ok || !req.inProcess {
		t.Errorf("%s=inprocess: %+v, %v; want in process", driverEnv, req, ok)
	}
	if _, ok := parseStandalone([]string{"-fix", "./..."}, analyzers); ok {
		t.Errorf("%s=inprocess -fix: not left to the multichecker", driverEnv)
	}
}

// TestDriversAgree: a standalone text run through go vet prints what the
// in-process driver prints, with the same exit code, on the sample (which
// has findings with related information and a //locklint:ignore
// directive without a reason) and on a package that does not type-check;
// and so do -json and -sarif runs.
func TestDriversAgree(t *testing.T) {
	for _, name := range []string{"sample", "broken"} {
		dir := sample(t, name)
		_, viaVet, codeVet := locklint(t, dir, "./...")
		jsonVet, _, codeJSONVet := locklint(t, dir, "-json", "./...")
		sarifVet, _, codeSARIFVet := locklint(t, dir, "-sarif", "-lockvalue=false", "./...")
		t.Setenv(driverEnv, "inprocess")
		_, inProc, codeIn := locklint(t, dir, "./...")
		jsonIn, _, codeJSONIn := locklint(t, dir, "-json", "./...")
		sarifIn, _, codeSARIFIn := locklint(t, dir, "-sarif", "-lockvalue=false", "./...")
		os.Unsetenv(driverEnv)
		if codeSARIFVet != codeSARIFIn {
			t.Errorf("%s -sarif: exit code %d through go vet, %d in process", name, codeSARIFVet, codeSARIFIn)
		}
		if name == "sample" && sarifVet != sarifIn {
			t.Errorf("-sarif through go vet:\n%s\nin process:\n%s", sarifVet, sarifIn)
		}
		if name == "sample" && (!strings.Contains(sarifVet, `"ruleId": "lockdemo"`) || strings.Contains(sarifVet, `"id": "lockvalue"`)) {
			t.Errorf("-sarif -lockvalue=false: want lockdemo results and no lockvalue rule:\n%s", sarifVet)
		}
		if codeJSONVet != codeJSONIn {
			t.Errorf("%s -json: exit code %d through go vet, %d in process", name, codeJSONVet, codeJSONIn)
		}
		if name == "sample" {
			var a, b any
			if err := json.Unmarshal([]byte(jsonVet), &a); err != nil {
				t.Fatalf("-json through go vet: %v\n%s", err, jsonVet)
			}
			if err := json.Unmarshal([]byte(jsonIn), &b); err != nil {
				t.Fatalf("-json in process: %v\n%s", err, jsonIn)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("-json through go vet:\n%s\nin process:\n%s", jsonVet, jsonIn)
			}
		}
		if codeVet != codeIn {
			t.Errorf("%s: exit code %d through go vet, %d in process", name, codeVet, codeIn)
		}
		if name == "sample" && viaVet != inProc {
			t.Errorf("%s: output through go vet:\n%s\nin process:\n%s", name, viaVet, inProc)
		}
		if name == "sample" && codeVet != 3 {
			t.Errorf("sample: exit code %d, want 3", codeVet)
		}
	}
}
