package vetrun

import (
	"slices"
	"testing"
)

// TestParse: go vet -json output with a tree per package (a test variant
// repeating a finding of its package, arriving first), an analyzer error,
// progress lines, a compiler error naming a file and one naming none.
func TestParse(t *testing.T) {
	out := `go: downloading example.com/dep v1.0.0
{
	"p [p.test]": {
		"lockvalue": [
			{"posn": "/m/p/a.go:3:4", "end": "/m/p/a.go:3:9", "message": "constant value"},
			{"posn": "/m/p/a_test.go:7:1", "end": "/m/p/a_test.go:7:2", "message": "in a test"}
		]
	}
}
{
	"p": {
		"lockvalue": [
			{"posn": "/m/p/a.go:3:4", "end": "/m/p/a.go:3:9", "message": "constant value",
			 "suggested_fixes": [{"message": "use a token", "edits": [{"filename": "/m/p/a.go", "start": 10, "end": 13, "new": "tok"}]}],
			 "related": [{"posn": "/m/p/a.go:9:2", "end": "/m/p/a.go:9:5", "message": "DEL here"}]}
		],
		"lockfence": {"error": "internal error"}
	}
}
# q
vet: q/b.go:4:2: undefined: x
go: something went wrong
`
	res, err := parse([]byte(out), "/m")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.All {
		got = append(got, f.Package+" "+f.Analyzer+" "+f.Posn)
	}
	want := []string{"p lockvalue /m/p/a.go:3:4", "p [p.test] lockvalue /m/p/a_test.go:7:1"}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q (each once, kept as the package's)", got, want)
	}
	if f := res.Findings["/m/p/a.go"]; len(f) != 1 || len(f[0].Fixes) != 1 || f[0].Fixes[0].Edits[0].New != "tok" || len(f[0].Related) != 1 {
		t.Errorf("a.go: %+v, want the finding with its fix and related location", f)
	}
	if e := res.Errors["/m/q/b.go"]; len(e) != 1 {
		t.Errorf("errors of q/b.go: %q", e)
	}
	if e := res.Errors[""]; !slices.Equal(e, []string{"go: something went wrong", "p: lockfence: internal error"}) {
		t.Errorf("errors naming no file: %q", e)
	}
	if file, line, col := SplitPosn("/a:b/c.go:12:5"); file != "/a:b/c.go" || line != 12 || col != 5 {
		t.Errorf("SplitPosn: %s %d %d", file, line, col)
	}
}
