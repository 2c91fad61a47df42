package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Repo is one labels/<owner>__<name>.json file: a public repository pinned
// at a commit, and the labelled files in it.
type Repo struct {
	Repo    string `json:"repo"`   // owner/name
	Commit  string `json:"commit"` // 40 hex digits
	FoundBy string `json:"found_by,omitempty"`
	Files   []File `json:"files"`
}

// File is one labelled Go file.
type File struct {
	Module  string   `json:"module"`  // directory of its go.mod, relative to the repository root
	Package string   `json:"package"` // package directory relative to Module, as go build takes it
	File    string   `json:"file"`    // relative to the repository root
	Client  string   `json:"client,omitempty"`
	Defects []Defect `json:"defects"`
	Safe    []Safe   `json:"safe"`
	Notes   string   `json:"notes,omitempty"`
}

// Defect is a labelled bug of one class (../shared/docs/defect-classes.md).
type Defect struct {
	Class  string `json:"class"`
	Line   int    `json:"line"`
	Writes []int  `json:"writes,omitempty"` // D7: the protected writes
	Why    string `json:"why"`
}

// Safe is a must-not-flag site: a line most likely to be mistaken for a
// defect that is correct, or not a lock at all.
type Safe struct {
	Line int    `json:"line"`
	Kind string `json:"kind"`
	Why  string `json:"why"`
}

// Classes maps each defect class to the analyzers meant to find it.
var Classes = map[string][]string{
	"D1":  {"lockexpiry"},
	"D2":  {"lockexpiry"},
	"D3":  {"lockrelease"},
	"D4":  {"lockrelease", "lockrenew"},
	"D5":  {"lockvalue"},
	"D6":  {"lockrenew"},
	"D7":  {"lockfence"},
	"D8":  {"lockresult"},
	"D9":  {"lockunits"},
	"D10": {"locklease"},
}

// SafeKinds are the kinds a must-not-flag site may have.
var SafeKinds = []string{
	"atomic-acquire", "lua-cad", "lua-extend", "watch-multi", "peer-lib",
	"checked-result", "units-ok", "nx-seed", "idempotency", "flag", "cache",
	"session", "ratelimit", "counter", "leader", "other-nonlock",
	"fenced-write", "lease-ok", "unique-value",
}

// Dir is the checkout directory of the repository inside the corpus.
func (r *Repo) Dir(corpus string) string {
	return filepath.Join(corpus, strings.Replace(r.Repo, "/", "__", 1))
}

// Lines returns the lines a report of a class-matching analyzer may land
// on to count as finding d: the labelled line and, for D7, every write.
func (d *Defect) Lines() []int { return append([]int{d.Line}, d.Writes...) }

var (
	repoName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	hexSHA   = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// LoadLabels reads every labels/*.json file in dir, sorted by repository.
func LoadLabels(dir string) ([]*Repo, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var repos []*Repo
	for _, name := range names {
		var r Repo
		if err := readStrict(name, &r); err != nil {
			return nil, err
		}
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if want := strings.Replace(r.Repo, "/", "__", 1) + ".json"; filepath.Base(name) != want {
			return nil, fmt.Errorf("%s: labels for %s belong in %s", name, r.Repo, want)
		}
		repos = append(repos, &r)
	}
	slices.SortFunc(repos, func(a, b *Repo) int { return strings.Compare(a.Repo, b.Repo) })
	return repos, nil
}

// readStrict decodes the JSON file name into v, refusing unknown fields
// (a misspelt label field would otherwise be dropped silently).
func readStrict(name string, v any) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (r *Repo) validate() error {
	if !repoName.MatchString(r.Repo) {
		return fmt.Errorf("repo %q is not owner/name", r.Repo)
	}
	if !hexSHA.MatchString(r.Commit) {
		return fmt.Errorf("commit %q is not 40 hex digits", r.Commit)
	}
	if len(r.Files) == 0 {
		return fmt.Errorf("no labelled files")
	}
	seen := make(map[string]bool)
	for _, f := range r.Files {
		if seen[f.File] {
			return fmt.Errorf("%s listed twice", f.File)
		}
		seen[f.File] = true
		if !strings.HasSuffix(f.File, ".go") || filepath.IsAbs(f.File) || strings.Contains(f.File, "..") {
			return fmt.Errorf("file %q: want a .go file relative to the repository root", f.File)
		}
		if filepath.IsAbs(f.Module) || strings.Contains(f.Module, "..") || filepath.IsAbs(f.Package) || strings.Contains(f.Package, "..") {
			return fmt.Errorf("%s: module %q and package %q must be inside the repository", f.File, f.Module, f.Package)
		}
		if got := filepath.Dir(f.File); filepath.Clean(filepath.Join(f.Module, f.Package)) != got {
			return fmt.Errorf("%s is not in package %s of module %q", f.File, f.Package, f.Module)
		}
		if len(f.Defects) == 0 && len(f.Safe) == 0 {
			return fmt.Errorf("%s has no labels", f.File)
		}
		for _, d := range f.Defects {
			if Classes[d.Class] == nil {
				return fmt.Errorf("%s:%d: unknown class %q", f.File, d.Line, d.Class)
			}
			if d.Line <= 0 || strings.TrimSpace(d.Why) == "" {
				return fmt.Errorf("%s:%d: a defect needs a line and a why", f.File, d.Line)
			}
			if len(d.Writes) > 0 && d.Class != "D7" {
				return fmt.Errorf("%s:%d: only D7 lists writes", f.File, d.Line)
			}
			for _, w := range d.Writes {
				if w <= 0 {
					return fmt.Errorf("%s:%d: bad write line %d", f.File, d.Line, w)
				}
			}
		}
		for _, s := range f.Safe {
			if !slices.Contains(SafeKinds, s.Kind) {
				return fmt.Errorf("%s:%d: unknown must-not-flag kind %q", f.File, s.Line, s.Kind)
			}
			if s.Line <= 0 || strings.TrimSpace(s.Why) == "" {
				return fmt.Errorf("%s:%d: a must-not-flag site needs a line and a why", f.File, s.Line)
			}
		}
	}
	return nil
}
