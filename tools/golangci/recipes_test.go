package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// decodeStrict decodes a YAML file into v, failing on unknown fields.
func decodeStrict(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestCustomGCL checks .custom-gcl.yml against the rules `golangci-lint
// custom` v2.15.0 applies (pkg/commands/internal/configuration.go), and
// that it builds the golangci-lint version this module builds.
func TestCustomGCL(t *testing.T) {
	var cfg struct {
		Version     string `yaml:"version"`
		Name        string `yaml:"name"`
		Destination string `yaml:"destination"`
		Plugins     []struct {
			Module  string `yaml:"module"`
			Import  string `yaml:"import"`
			Version string `yaml:"version"`
			Path    string `yaml:"path"`
		} `yaml:"plugins"`
	}
	decodeStrict(t, ".custom-gcl.yml", &cfg)
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "github.com/golangci/golangci-lint/v2 "+cfg.Version+"\n") {
		t.Errorf(".custom-gcl.yml builds golangci-lint %s; tools/golangci/go.mod requires another version", cfg.Version)
	}
	if len(cfg.Plugins) != 1 {
		t.Fatalf("want one plugin, got %d", len(cfg.Plugins))
	}
	p := cfg.Plugins[0]
	if p.Module != "github.com/locklint/locklint" || p.Import != "github.com/locklint/locklint/plugin" {
		t.Errorf("plugin %+v does not import github.com/locklint/locklint/plugin", p)
	}
	if (p.Version == "") == (p.Path == "") {
		t.Errorf("plugin needs exactly one of version and path: %+v", p)
	}
	if cfg.Name == "" || cfg.Destination == "" {
		t.Errorf("name %q, destination %q", cfg.Name, cfg.Destination)
	}
}

// TestWorkflow checks that the GitHub Actions workflow runs locklint with
// -sarif and uploads the file it writes with the permission to do so.
func TestWorkflow(t *testing.T) {
	type step struct {
		Name string            `yaml:"name"`
		Uses string            `yaml:"uses"`
		Run  string            `yaml:"run"`
		If   string            `yaml:"if"`
		With map[string]string `yaml:"with"`
	}
	var wf struct {
		Name        string            `yaml:"name"`
		On          map[string]any    `yaml:"on"`
		Permissions map[string]string `yaml:"permissions"`
		Jobs        map[string]struct {
			RunsOn      string            `yaml:"runs-on"`
			Permissions map[string]string `yaml:"permissions"`
			Steps       []step            `yaml:"steps"`
		} `yaml:"jobs"`
	}
	decodeStrict(t, filepath.Join(".github", "workflows", "locklint.yml"), &wf)
	job, ok := wf.Jobs["locklint"]
	if !ok {
		t.Fatal("no locklint job")
	}
	if job.Permissions["security-events"] != "write" {
		t.Errorf("the job cannot upload SARIF: permissions %v", job.Permissions)
	}
	var sarifFile string
	uploaded := false
	for _, s := range job.Steps {
		if f, ok := strings.CutPrefix(s.Run, "locklint -sarif ./... > "); ok {
			sarifFile = strings.TrimSpace(f)
		}
		if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") {
			uploaded = sarifFile != "" && s.With["sarif_file"] == sarifFile && strings.Contains(s.If, "!cancelled()")
		}
	}
	if !uploaded {
		t.Errorf("no upload-sarif step after `locklint -sarif ./... > FILE` that uploads FILE even when locklint fails")
	}
}

// TestPreCommitHooks checks .pre-commit-hooks.yaml has the keys pre-commit
// requires and runs locklint on the module, not on single files.
func TestPreCommitHooks(t *testing.T) {
	var hooks []struct {
		ID            string   `yaml:"id"`
		Name          string   `yaml:"name"`
		Description   string   `yaml:"description"`
		Entry         string   `yaml:"entry"`
		Args          []string `yaml:"args"`
		Language      string   `yaml:"language"`
		Types         []string `yaml:"types"`
		PassFilenames *bool    `yaml:"pass_filenames"`
		RequireSerial bool     `yaml:"require_serial"`
	}
	decodeStrict(t, ".pre-commit-hooks.yaml", &hooks)
	if len(hooks) == 0 {
		t.Fatal("no hooks")
	}
	for _, h := range hooks {
		if h.ID == "" || h.Name == "" || h.Entry != "locklint" || h.Language != "golang" {
			t.Errorf("hook %+v lacks id, name, entry locklint or language golang", h)
		}
		if h.PassFilenames == nil || *h.PassFilenames || h.Args[len(h.Args)-1] != "./..." {
			t.Errorf("hook %s must check ./... without file names", h.ID)
		}
	}
}
