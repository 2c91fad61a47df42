package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A finding is one diagnostic of one analyzer, as go vet -json prints it:
// positions are "file:line:col" (col in bytes), edits byte offsets.
type finding struct {
	Analyzer string
	Posn     string      `json:"posn"`
	End      string      `json:"end"`
	Message  string      `json:"message"`
	Fixes    []vetFix    `json:"suggested_fixes"`
	Related  []vetRelate `json:"related"`
}

type vetFix struct {
	Message string    `json:"message"`
	Edits   []vetEdit `json:"edits"`
}

type vetEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type vetRelate struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

// vetResult is what one go vet run found: findings by file, and the errors
// that kept packages from being analysed (a package that does not
// type-check, a directory outside the module), by file where they name one.
type vetResult struct {
	findings map[string][]finding
	errors   map[string][]string // file ("" when none is named) -> messages
}

// vetter runs the analyzers through the go command (go vet -vettool), which
// analyses one package per process, keeps the facts of every dependency in
// its build cache, and re-runs only what a change affects: a save
// re-analyses the saved package, and its importers only when what they
// depend on (export data, facts) changed.
type vetter struct {
	tool  string // the locklint binary
	goCmd string
}

// run vets the packages (patterns, e.g. "./pkg") from dir with flags.
func (v *vetter) run(ctx context.Context, dir string, flags []string, patterns ...string) (*vetResult, error) {
	args := append([]string{"vet", "-vettool=" + v.tool, "-json"}, flags...)
	args = append(args, patterns...)
	cmd := exec.CommandContext(ctx, v.goCmd, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// The JSON goes to stdout (Go 1.24 and later) or stderr (before);
	// errors to stderr.
	res, err := parseVet(append(append(stdout.Bytes(), '\n'), stderr.Bytes()...), dir)
	if err != nil {
		return nil, err
	}
	if runErr != nil && len(res.errors) == 0 && len(res.findings) == 0 {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return nil, fmt.Errorf("go vet: %w", runErr)
		}
		res.errors[""] = append(res.errors[""], strings.TrimSpace(stdout.String()+stderr.String()))
	}
	return res, nil
}

// errLine is a compiler or go command error naming a file.
var errLine = regexp.MustCompile(`^(?:vet: )?(\S+\.go):(\d+)(?::(\d+))?: (.*)$`)

// parseVet reads go vet -json's output: JSON trees
// ({package: {analyzer: [finding] | {"error": msg}}}) between "# pkg"
// lines and error text.
func parseVet(out []byte, dir string) (*vetResult, error) {
	res := &vetResult{findings: map[string][]finding{}, errors: map[string][]string{}}
	type key struct{ posn, analyzer, msg string }
	seen := map[key]bool{}
	for len(bytes.TrimSpace(out)) > 0 {
		out = bytes.TrimLeft(out, " \t\r\n")
		if out[0] == '{' {
			dec := json.NewDecoder(bytes.NewReader(out))
			var tree map[string]map[string]json.RawMessage
			if err := dec.Decode(&tree); err != nil {
				return nil, fmt.Errorf("go vet -json: %w", err)
			}
			out = out[dec.InputOffset():]
			for _, byAnalyzer := range tree {
				for name, raw := range byAnalyzer {
					var list []finding
					if err := json.Unmarshal(raw, &list); err != nil {
						var e struct {
							Error string `json:"error"`
						}
						if json.Unmarshal(raw, &e) == nil && e.Error != "" {
							res.errors[""] = append(res.errors[""], name+": "+e.Error)
						}
						continue
					}
					for _, f := range list {
						k := key{f.Posn, name, f.Message}
						if seen[k] {
							continue // the package and its test variant
						}
						seen[k] = true
						f.Analyzer = name
						file, _, _ := splitPosn(f.Posn)
						res.findings[file] = append(res.findings[file], f)
					}
				}
			}
			continue
		}
		line, rest, _ := bytes.Cut(out, []byte("\n"))
		out = rest
		text := strings.TrimSpace(string(line))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if m := errLine.FindStringSubmatch(text); m != nil {
			file := m[1]
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			res.errors[file] = append(res.errors[file], text)
			continue
		}
		res.errors[""] = append(res.errors[""], text)
	}
	for _, fs := range res.findings {
		sort.SliceStable(fs, func(i, j int) bool { return posLess(fs[i].Posn, fs[j].Posn) })
	}
	return res, nil
}

// splitPosn splits "file:line:col".
func splitPosn(p string) (file string, line, col int) {
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

func posLess(a, b string) bool {
	_, la, ca := splitPosn(a)
	_, lb, cb := splitPosn(b)
	return la < lb || la == lb && ca < cb
}
