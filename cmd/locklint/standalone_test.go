package main

import (
	"os"
	"slices"
	"testing"

	"github.com/locklint/locklint/analyzers/all"
)

// TestStandaloneVetArgs: which standalone runs go through go vet, and the
// flags they pass on; the rest keep the in-process driver.
func TestStandaloneVetArgs(t *testing.T) {
	analyzers := append(all.Analyzers(), lockdemo)
	for _, tc := range []struct {
		args     []string
		flags    []string
		patterns []string
		viaGoVet bool
	}{
		{args: []string{"./..."}, patterns: []string{"./..."}, viaGoVet: true},
		{args: []string{"-lockvalue=false", "--lockdemo", "./a", "./b"}, flags: []string{"-lockvalue=false", "--lockdemo"}, patterns: []string{"./a", "./b"}, viaGoVet: true},
		{args: []string{"-tags", "integration", "-test", "./..."}, flags: []string{"-tags=integration"}, patterns: []string{"./..."}, viaGoVet: true},
		{args: []string{"-test=false", "./..."}},    // go vet always analyses tests
		{args: []string{"-json", "./..."}},          // JSON: in process
		{args: []string{"-fix", "./..."}},           // fixes: in process
		{args: []string{"-c", "2", "./..."}},        // context lines
		{args: []string{"-nosuchflag", "./..."}},    // the in-process driver reports it
		{args: []string{"-lockvalue=false"}},        // no packages
		{args: []string{"help"}},                    // help
		{args: []string{"-V=full"}},                 // go vet's questions
		{args: []string{"-json", "/tmp/x/vet.cfg"}}, // go vet's unit
		{args: []string{"-tags"}},                   // a flag without its value
	} {
		flags, patterns, ok := standaloneVet(tc.args, analyzers)
		if ok != tc.viaGoVet || !slices.Equal(flags, tc.flags) || !slices.Equal(patterns, tc.patterns) {
			t.Errorf("%q: via go vet %v, flags %q, patterns %q; want %v %q %q", tc.args, ok, flags, patterns, tc.viaGoVet, tc.flags, tc.patterns)
		}
	}
	t.Setenv(driverEnv, "inprocess")
	if _, _, ok := standaloneVet([]string{"./..."}, analyzers); ok {
		t.Errorf("%s=inprocess: still via go vet", driverEnv)
	}
}

// TestDriversAgree: a standalone text run through go vet prints what the
// in-process driver prints, with the same exit code, on the sample (which
// has findings with related information and a //locklint:ignore
// directive without a reason) and on a package that does not type-check.
func TestDriversAgree(t *testing.T) {
	for _, name := range []string{"sample", "broken"} {
		dir := sample(t, name)
		_, viaVet, codeVet := locklint(t, dir, "./...")
		t.Setenv(driverEnv, "inprocess")
		_, inProc, codeIn := locklint(t, dir, "./...")
		os.Unsetenv(driverEnv)
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
