// Command realworld scores locklint on a labelled corpus of public Go code
// that takes Redis locks: repositories pinned at commits (labels/*.json),
// every defect (classes D1–D10) and must-not-flag site labelled by reading
// the code before locklint ever ran on it.
//
// Usage, from the repository root:
//
//	go run ./internal/realworld            # table, misses and false reports
//	go run ./internal/realworld -json      # the same as JSON
//	go run ./internal/realworld -repo etix/mirrorbits
//
// It builds locklint, runs `locklint -json` on each labelled package in the
// checkouts ($LOCKLINT_CORPUS, default ~/.cache/locklint/realworld), and
// counts a report within two lines of a label of its analyzer's class (D7:
// of the acquire or any protected write) as right; every other report in a
// labelled file is false. README.md says how to recreate the checkouts.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
)

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

func realMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("realworld", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the score as JSON")
	only := fs.String("repo", "", "score only these repositories (owner/name, comma-separated)")
	jobs := fs.Int("j", 2, "packages analysed at once")
	corpus := fs.String("corpus", CorpusDir(), "directory of the checkouts")
	prebuilt := fs.String("locklint", "", "score this locklint binary instead of building ./cmd/locklint (to compare versions)")
	writeFloors := fs.Bool("write-floors", false, "set floors.json to this run's figures (after a rise)")
	labels := fs.String("labels", "", "directory of the label files (default internal/realworld/labels)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(stderr, "realworld:", err)
		return 2
	}
	if *labels == "" {
		*labels = filepath.Join(root, "internal", "realworld", "labels")
	}
	repos, err := LoadLabels(*labels)
	if err != nil {
		fmt.Fprintln(stderr, "realworld:", err)
		return 2
	}
	if *only != "" {
		want := strings.Split(*only, ",")
		repos = slices.DeleteFunc(repos, func(r *Repo) bool { return !slices.Contains(want, r.Repo) })
	}
	bin, cleanup := *prebuilt, func() {}
	if bin == "" {
		bin, cleanup, err = buildLocklint(root)
		if err != nil {
			fmt.Fprintln(stderr, "realworld:", err)
			return 2
		}
	} else if *writeFloors {
		fmt.Fprintln(stderr, "realworld: -write-floors scores this checkout's locklint, not -locklint")
		return 2
	}
	defer cleanup()
	sc := (&Runner{Locklint: bin, Corpus: *corpus, Jobs: *jobs}).Score(context.Background(), repos)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sc); err != nil {
			fmt.Fprintln(stderr, "realworld:", err)
			return 2
		}
	} else {
		writeText(stdout, sc)
	}
	if len(sc.Errors) > 0 {
		return 1
	}
	if *writeFloors {
		if *only != "" {
			fmt.Fprintln(stderr, "realworld: -write-floors needs the whole corpus, not -repo")
			return 2
		}
		if err := WriteFloors(filepath.Join(root, "internal", "realworld", "floors.json"), FloorsOf(sc)); err != nil {
			fmt.Fprintln(stderr, "realworld:", err)
			return 2
		}
	}
	return 0
}

// CorpusDir is $LOCKLINT_CORPUS, or ~/.cache/locklint/realworld.
func CorpusDir() string {
	if dir := os.Getenv("LOCKLINT_CORPUS"); dir != "" {
		return dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "locklint", "realworld")
	}
	return filepath.Join(cache, "locklint", "realworld")
}

// moduleRoot finds the locklint module around the working directory.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/locklint/locklint").Output()
	if err != nil {
		return "", fmt.Errorf("run from inside the locklint module: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildLocklint builds the locklint command into a temporary directory.
func buildLocklint(root string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "realworld")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	bin := filepath.Join(dir, "locklint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/locklint")
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("building locklint: %w\n%s", err, out.String())
	}
	return bin, cleanup, nil
}

// analyzersOf lists the analyzers in class order, for the tables.
func analyzersOf() []string {
	var names []string
	for _, c := range classOrder() {
		for _, a := range Classes[c] {
			if !slices.Contains(names, a) {
				names = append(names, a)
			}
		}
	}
	return names
}

func classOrder() []string {
	return []string{"D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10"}
}

// writeRatios prints one table row per name, 0/0 for names not seen.
func writeRatios(w io.Writer, header string, names []string, m map[string]*Ratio) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header+"\t")
	for _, n := range names {
		r := m[n]
		if r == nil {
			r = new(Ratio)
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%.2f\t\n", n, r.Hit, r.Total, r.Value())
	}
	tw.Flush()
}

func writeText(w io.Writer, sc *Score) {
	fmt.Fprintf(w, "corpus: %d repositories, %d labelled files, %d must-not-flag sites\n\n", sc.Repos, sc.Files, sc.Safe)
	writeRatios(w, "analyzer\treports right\tprecision", analyzersOf(), sc.Precision)
	fmt.Fprintln(w)
	writeRatios(w, "class\tlabels found\trecall", classOrder(), sc.Recall)
	if len(sc.Misses) > 0 {
		fmt.Fprintf(w, "\nmisses (%d):\n", len(sc.Misses))
		for _, m := range sc.Misses {
			fmt.Fprintf(w, "  %s %s:%d %s: %s\n", m.Repo, m.File, m.Line, m.Class, m.Why)
		}
	}
	if len(sc.False) > 0 {
		fmt.Fprintf(w, "\nfalse reports (%d):\n", len(sc.False))
		for _, f := range sc.False {
			fmt.Fprintf(w, "  %s %s:%d %s: %s\n", f.Repo, f.File, f.Line, f.Analyzer, f.Message)
		}
	}
	if len(sc.SafeHit) > 0 {
		fmt.Fprintf(w, "\nmust-not-flag sites reported (%d):\n", len(sc.SafeHit))
		for _, s := range sc.SafeHit {
			fmt.Fprintf(w, "  %s %s:%d %s (%s) by %s\n", s.Repo, s.File, s.Line, s.Kind, s.Why, s.Analyzer)
		}
	}
	if len(sc.Errors) > 0 {
		fmt.Fprintf(w, "\nerrors (%d):\n", len(sc.Errors))
		for _, e := range sc.Errors {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}
