package all

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestFactsGobEncodable: drivers that analyse one package per process
// (go vet, Bazel's nogo) carry facts between processes by encoding/gob.
// Every fact type of every analyzer, and of what they require, must
// round-trip through gob.
func TestFactsGobEncodable(t *testing.T) {
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	count := 0
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, f := range a.FactTypes {
			count++
			typ := reflect.TypeOf(f)
			gob.Register(f)
			var buf bytes.Buffer
			in := f
			if err := gob.NewEncoder(&buf).Encode(&in); err != nil {
				t.Errorf("%s: fact %v does not encode: %v", a.Name, typ, err)
				continue
			}
			var out analysis.Fact
			if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
				t.Errorf("%s: fact %v does not decode: %v", a.Name, typ, err)
				continue
			}
			if reflect.TypeOf(out) != typ {
				t.Errorf("%s: fact %v decodes as %T", a.Name, typ, out)
			}
		}
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range Analyzers() {
		visit(a)
	}
	if count == 0 {
		t.Fatal("no fact types found: the test would prove nothing")
	}
}
