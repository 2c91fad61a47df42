package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabels checks every label file: well-formed, known classes and
// kinds, files inside their packages, and (when the checkouts are here)
// every labelled line inside its file.
func TestLabels(t *testing.T) {
	repos, err := LoadLabels("labels")
	if err != nil {
		t.Fatal(err)
	}
	corpus := CorpusDir()
	for _, r := range repos {
		dir := r.Dir(corpus)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		for _, f := range r.Files {
			n, err := countLines(filepath.Join(dir, f.File))
			if err != nil {
				t.Errorf("%s: %v", r.Repo, err)
				continue
			}
			for _, d := range f.Defects {
				for _, l := range d.Lines() {
					if l > n {
						t.Errorf("%s %s:%d: the file has %d lines", r.Repo, f.File, l, n)
					}
				}
			}
			for _, s := range f.Safe {
				if s.Line > n {
					t.Errorf("%s %s:%d: the file has %d lines", r.Repo, f.File, s.Line, n)
				}
			}
		}
	}
}

func countLines(name string) (int, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		n++
	}
	return n, sc.Err()
}

func TestRatioAndFloors(t *testing.T) {
	sc := &Score{
		Precision: map[string]*Ratio{"lockrelease": {Hit: 19, Total: 20}},
		Recall:    map[string]*Ratio{"D3": {Hit: 2, Total: 3}},
	}
	fl := FloorsOf(sc)
	if fl.Precision["lockrelease"] != 0.95 || fl.Recall["D3"] != 0.66 || fl.Precision["lockvalue"] != 1 {
		t.Fatalf("floors %+v", fl)
	}
	if below, above := fl.Check(sc); len(below)+len(above) != 0 {
		t.Errorf("a score against its own floors: below %v, above %v", below, above)
	}
	sc.Recall["D3"].Hit = 1
	if below, _ := fl.Check(sc); len(below) != 1 {
		t.Errorf("a drop in D3 recall is not below its floor: %v", below)
	}
	sc.Recall["D3"].Hit = 3
	if _, above := fl.Check(sc); len(above) != 1 {
		t.Errorf("a rise in D3 recall does not ask for a higher floor: %v", above)
	}
}

func TestParseJSON(t *testing.T) {
	out := []byte(`{
	"example.com/p": {"lockrelease": [{"posn": "/c/o__n/p/a.go:12:3", "message": "m"}], "lockvalue": {"error": "boom"}},
	"example.com/p [example.com/p.test]": {"lockrelease": [{"posn": "/c/o__n/p/a.go:12:3", "message": "m"}]}
}`)
	reps, err := parseJSON(out, "/c/o__n")
	if err == nil {
		t.Error("an analyzer error was not returned")
	}
	if len(reps) != 1 || reps[0] != (Report{Analyzer: "lockrelease", File: "p/a.go", Line: 12, Message: "m"}) {
		t.Errorf("reports %+v, want one lockrelease at p/a.go:12", reps)
	}
	// Related lines of the same file count, where the lock was acquired
	// does not.
	out = []byte(`{"example.com/p": {"locklease": [{"posn": "/c/o__n/p/a.go:30:3", "message": "m", "related": [
		{"posn": "/c/o__n/p/a.go:5:2", "message": "lock acquired here"},
		{"posn": "/c/o__n/p/a.go:26:9", "message": "the renewal"},
		{"posn": "/c/o__n/p/a.go:28:9", "message": "also written without a fence: Redis SET"},
		{"posn": "/c/o__n/p/b.go:7:1", "message": "the renewal"}]}]}}`)
	reps, err = parseJSON(out, "/c/o__n")
	if err != nil || len(reps) != 1 || reps[0].Related != "26" {
		t.Errorf("reports %+v (%v), want one with related line 26", reps, err)
	}
}

// TestScoreD1Pair checks that a D1 report at the acquire, naming the
// separate EXPIRE as related information, finds both labels of the pair,
// and that a report of another analyzer does not.
func TestScoreD1Pair(t *testing.T) {
	r := &Repo{Repo: "o/n", Files: []File{{
		File:    "a.go",
		Defects: []Defect{{Class: "D1", Line: 10}, {Class: "D1", Line: 20}, {Class: "D1", Line: 40}, {Class: "D1", Line: 50}},
	}}}
	sc := &Score{Precision: map[string]*Ratio{}, Recall: map[string]*Ratio{}}
	sc.add(&unit{repo: r, files: []*File{&r.Files[0]}}, []Report{
		{Analyzer: "lockexpiry", File: "a.go", Line: 10, Related: "20"},
		{Analyzer: "lockvalue", File: "a.go", Line: 40, Related: "50"},
	})
	if got := *sc.Recall["D1"]; got != (Ratio{Hit: 2, Total: 4}) {
		t.Errorf("D1 recall %v, want 2/4 (the pair at 10/20 only)", got)
	}
}

func TestScoreMatching(t *testing.T) {
	r := &Repo{Repo: "o/n", Files: []File{{
		File:    "p/a.go",
		Defects: []Defect{{Class: "D3", Line: 10}, {Class: "D7", Line: 30, Writes: []int{50}}, {Class: "D4", Line: 70}},
		Safe:    []Safe{{Line: 90, Kind: "lua-cad"}},
	}}}
	u := &unit{repo: r, files: []*File{&r.Files[0]}}
	sc := &Score{Precision: map[string]*Ratio{}, Recall: map[string]*Ratio{}}
	sc.add(u, []Report{
		{Analyzer: "lockrelease", File: "p/a.go", Line: 12}, // D3, two lines off
		{Analyzer: "lockvalue", File: "p/a.go", Line: 10},   // wrong class
		{Analyzer: "lockfence", File: "p/a.go", Line: 51},   // D7 at a write
		{Analyzer: "lockrenew", File: "p/a.go", Line: 70},   // D4 counts for lockrenew too
		{Analyzer: "lockrelease", File: "p/a.go", Line: 91}, // on a must-not-flag site
		{Analyzer: "lockrelease", File: "p/b.go", Line: 1},  // unlabelled file: not counted
	})
	if got := *sc.Precision["lockrelease"]; got != (Ratio{Hit: 1, Total: 2}) {
		t.Errorf("lockrelease precision %v", got)
	}
	if got := *sc.Precision["lockvalue"]; got != (Ratio{Hit: 0, Total: 1}) {
		t.Errorf("lockvalue precision %v", got)
	}
	for class, want := range map[string]Ratio{"D3": {1, 1}, "D7": {1, 1}, "D4": {1, 1}} {
		if got := *sc.Recall[class]; got != want {
			t.Errorf("%s recall %v, want %v", class, got, want)
		}
	}
	if len(sc.SafeHit) != 1 || sc.SafeHit[0].Line != 90 || len(sc.False) != 2 {
		t.Errorf("false %v, must-not-flag reported %v", sc.False, sc.SafeHit)
	}
}

// TestCorpusScore runs locklint on the whole corpus and fails when a figure
// falls below its floor in floors.json, or rises above it (raise the floor
// in the same commit: go run ./internal/realworld -write-floors), or when
// a package fails to load or an analyzer fails. It needs the checkouts
// (README.md) and takes minutes, so it runs only with LOCKLINT_REALWORLD=1,
// as .ci/run sets it in a step of its own.
func TestCorpusScore(t *testing.T) {
	if os.Getenv("LOCKLINT_REALWORLD") == "" {
		t.Skip("scores the real-world corpus (minutes): LOCKLINT_REALWORLD=1 go test ./internal/realworld, with the checkouts of README.md")
	}
	corpus := CorpusDir()
	if _, err := os.Stat(corpus); err != nil {
		t.Fatalf("LOCKLINT_REALWORLD is set but the corpus is missing: %v (internal/realworld/README.md says how to recreate it)", err)
	}
	repos, err := LoadLabels("labels")
	if err != nil {
		t.Fatal(err)
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin, cleanup, err := buildLocklint(root)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	sc := (&Runner{Locklint: bin, Corpus: corpus, Jobs: 2}).Score(context.Background(), repos)
	var b strings.Builder
	writeText(&b, sc)
	t.Log("\n" + b.String())
	for _, e := range sc.Errors {
		t.Errorf("error: %s", e)
	}
	fl, err := LoadFloors("floors.json")
	if err != nil {
		t.Fatal(err)
	}
	below, above := fl.Check(sc)
	for _, s := range below {
		t.Errorf("below the floor: %s", s)
	}
	for _, s := range above {
		t.Errorf("above the floor (raise it in this commit: go run ./internal/realworld -write-floors): %s", s)
	}
}

// TestScoreD10Pair checks that a D10 report at the branch that drops a
// failed renewal, naming the renewal as related information, matches a
// D10 labelled on either line, for recall and precision, and that a
// report whose related line is only near another class's label does not.
func TestScoreD10Pair(t *testing.T) {
	r := &Repo{Repo: "o/n", Files: []File{{
		File:    "a.go",
		Defects: []Defect{{Class: "D10", Line: 10}, {Class: "D10", Line: 40}, {Class: "D3", Line: 70}},
	}}}
	sc := &Score{Precision: map[string]*Ratio{}, Recall: map[string]*Ratio{}}
	sc.add(&unit{repo: r, files: []*File{&r.Files[0]}}, []Report{
		{Analyzer: "locklease", File: "a.go", Line: 14, Related: "10"}, // the branch; the renewal labelled
		{Analyzer: "locklease", File: "a.go", Line: 40},                // on the label itself
		{Analyzer: "locklease", File: "a.go", Line: 60, Related: "70"}, // related near a D3 only
	})
	if got := *sc.Recall["D10"]; got != (Ratio{Hit: 2, Total: 2}) {
		t.Errorf("D10 recall %v, want 2/2", got)
	}
	if got := *sc.Precision["locklease"]; got != (Ratio{Hit: 2, Total: 3}) {
		t.Errorf("locklease precision %v, want 2/3", got)
	}
}

// TestScoreD7Helper checks that a lockfence report at the call of a
// helper counts for a D7 whose writes list the helper's write, named as
// the report's related information.
func TestScoreD7Helper(t *testing.T) {
	r := &Repo{Repo: "o/n", Files: []File{{
		File:    "a.go",
		Defects: []Defect{{Class: "D7", Line: 50, Writes: []int{20}}, {Class: "D10", Line: 90}, {Class: "D8", Line: 110}},
	}}}
	sc := &Score{Precision: map[string]*Ratio{}, Recall: map[string]*Ratio{}}
	sc.add(&unit{repo: r, files: []*File{&r.Files[0]}}, []Report{
		{Analyzer: "lockfence", File: "a.go", Line: 60, Related: "20"},        // the call; the write labelled
		{Analyzer: "lockfence", File: "a.go", Line: 70, Related: "90"},        // related near a D10 only
		{Analyzer: "lockresult", File: "a.go", Line: 118, Related: "110 121"}, // the branch; the acquire labelled
	})
	if got := *sc.Recall["D8"]; got != (Ratio{Hit: 1, Total: 1}) {
		t.Errorf("D8 recall %v, want 1/1", got)
	}
	if got := *sc.Precision["lockresult"]; got != (Ratio{Hit: 1, Total: 1}) {
		t.Errorf("lockresult precision %v, want 1/1", got)
	}
	if got := *sc.Recall["D7"]; got != (Ratio{Hit: 1, Total: 1}) {
		t.Errorf("D7 recall %v, want 1/1", got)
	}
	if got := *sc.Precision["lockfence"]; got != (Ratio{Hit: 1, Total: 2}) {
		t.Errorf("lockfence precision %v, want 1/2", got)
	}
}
