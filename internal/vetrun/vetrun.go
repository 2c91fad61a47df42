// Package vetrun runs the locklint analyzers through the go command
// (go vet -vettool=locklint -json) and reads what they found. The go
// command analyses one package per process and keeps every package's
// facts and results in its build cache, so memory stays bounded by the
// largest package, and a run over unchanged code is served from the cache.
// The language server and the command's standalone runs both use it.
package vetrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Finding is one diagnostic of one analyzer, as go vet -json prints it:
// positions are "file:line:col" (col in bytes), edits byte offsets.
type Finding struct {
	Analyzer string    `json:"-"`
	Package  string    `json:"-"` // the package (or test variant) it was found in
	Category string    `json:"category,omitempty"`
	Posn     string    `json:"posn"`
	End      string    `json:"end"`
	Message  string    `json:"message"`
	Fixes    []Fix     `json:"suggested_fixes,omitempty"`
	Related  []Related `json:"related,omitempty"`
}

type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

type Edit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type Related struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

// Result is what one go vet run found: findings by file, and the errors
// that kept packages from being analysed (a package that does not
// type-check, a directory outside the module), by file where they name one.
type Result struct {
	All      []Finding // in the order the analyzers reported them, by package
	Findings map[string][]Finding
	Errors   map[string][]string // file ("" when none is named) -> messages
}

// Runner runs the analyzers through the go command (go vet -vettool), which
// analyses one package per process, keeps the facts of every dependency in
// its build cache, and re-runs only what a change affects: a package, and
// its importers only when what they depend on (export data, facts)
// changed.
type Runner struct {
	Tool string // the locklint binary
	Go   string // the go command; "go" when empty
}

// Run vets the packages (patterns, e.g. "./pkg") from dir with flags.
func (v *Runner) Run(ctx context.Context, dir string, flags []string, patterns ...string) (*Result, error) {
	args := append([]string{"vet", "-vettool=" + v.Tool, "-json"}, flags...)
	args = append(args, patterns...)
	goCmd := v.Go
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// The JSON goes to stdout (Go 1.24 and later) or stderr (before);
	// errors to stderr.
	res, err := parse(append(append(stdout.Bytes(), '\n'), stderr.Bytes()...), dir)
	if err != nil {
		return nil, err
	}
	if runErr != nil && len(res.Errors) == 0 && len(res.Findings) == 0 {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return nil, fmt.Errorf("go vet: %w", runErr)
		}
		res.Errors[""] = append(res.Errors[""], strings.TrimSpace(stdout.String()+stderr.String()))
	}
	return res, nil
}

// ErrLine is a compiler or go command error naming a file.
var ErrLine = regexp.MustCompile(`^(?:vet: )?(\S+\.go):(\d+)(?::(\d+))?: (.*)$`)

// parse reads go vet -json's output: JSON trees
// ({package: {analyzer: [Finding] | {"error": msg}}}) between "# pkg"
// lines and error text.
func parse(out []byte, dir string) (*Result, error) {
	res := &Result{Findings: map[string][]Finding{}, Errors: map[string][]string{}}
	trees := map[string]map[string]json.RawMessage{}
	for len(bytes.TrimSpace(out)) > 0 {
		out = bytes.TrimLeft(out, " \t\r\n")
		if out[0] == '{' {
			dec := json.NewDecoder(bytes.NewReader(out))
			var tree map[string]map[string]json.RawMessage
			if err := dec.Decode(&tree); err != nil {
				return nil, fmt.Errorf("go vet -json: %w", err)
			}
			out = out[dec.InputOffset():]
			maps.Copy(trees, tree) // go vet prints a tree per package
			continue
		}
		line, rest, _ := bytes.Cut(out, []byte("\n"))
		out = rest
		text := strings.TrimSpace(string(line))
		if text == "" || strings.HasPrefix(text, "#") || progress(text) {
			continue
		}
		if m := ErrLine.FindStringSubmatch(text); m != nil {
			file := m[1]
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			res.Errors[file] = append(res.Errors[file], text)
			continue
		}
		res.Errors[""] = append(res.Errors[""], text)
	}
	// Packages before their test variants ("p" sorts before "p [p.test]"),
	// so that a finding in both is kept as the package's.
	type key struct{ posn, analyzer, msg string }
	seen := map[key]bool{}
	for _, pkg := range slices.Sorted(maps.Keys(trees)) {
		byAnalyzer := trees[pkg]
		for _, name := range slices.Sorted(maps.Keys(byAnalyzer)) {
			var list []Finding
			if err := json.Unmarshal(byAnalyzer[name], &list); err != nil {
				var e struct {
					Error string `json:"error"`
				}
				if json.Unmarshal(byAnalyzer[name], &e) == nil && e.Error != "" {
					res.Errors[""] = append(res.Errors[""], pkg+": "+name+": "+e.Error)
				}
				continue
			}
			for _, f := range list {
				k := key{f.Posn, name, f.Message}
				if seen[k] {
					continue // the package and its test variant
				}
				seen[k] = true
				f.Analyzer, f.Package = name, pkg
				res.All = append(res.All, f)
				file, _, _ := SplitPosn(f.Posn)
				res.Findings[file] = append(res.Findings[file], f)
			}
		}
	}
	return res, nil
}

// SplitPosn splits "file:line:col".
func SplitPosn(p string) (file string, line, col int) {
	i := strings.LastIndexByte(p, ':')
	if i < 0 {
		return p, 0, 0
	}
	j := strings.LastIndexByte(p[:i], ':')
	if j < 0 {
		return p, 0, 0
	}
	line, err1 := strconv.Atoi(p[j+1 : i])
	col, err2 := strconv.Atoi(p[i+1:])
	if err1 != nil || err2 != nil {
		return p, 0, 0
	}
	return p[:j], line, col
}

// progress reports whether a line of the go command's is news of its
// progress (modules it fetches), not an error.
func progress(line string) bool {
	for _, p := range []string{"go: downloading ", "go: finding module ", "go: extracting ", "go: found "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}
