package lsp

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// requireNvim is the environment variable that makes the Neovim test fail,
// instead of skipping, when nvim is not installed (.ci/run sets it).
const requireNvim = "LOCKLINT_REQUIRE_NVIM"

// TestNeovim: a real editor as the client, set up by the Neovim recipe in
// docs/editors. Headless Neovim opens the demo file, receives the
// diagnostics, applies the fix code action and writes
// the file, and waits until the finding is gone; the file on disk then
// matches the golden text.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv(requireNvim) != "" {
			t.Fatalf("nvim not found and %s is set: %v", requireNvim, err)
		}
		t.Skip("nvim not installed")
	}
	root := demoModule(t)
	file := filepath.Join(root, "jobs", "jobs.go")
	script, err := filepath.Abs(filepath.Join("testdata", "nvim_fix.lua"))
	if err != nil {
		t.Fatal(err)
	}
	recipe, err := filepath.Abs(filepath.Join("..", "..", "docs", "editors", "locklint-lsp.lua"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nvim, "--headless", "--clean", "-n", "-u", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(locklintBin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"LOCKLINT_RECIPE="+recipe, "LSP_FILE="+file, "LSP_LINE=36", "LSP_CODE=lockexpiry", "XDG_STATE_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "jobs.fixed.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("the file after Neovim applied the fix differs from %s:\n%s", golden, got)
	}
}

// TestEditorRecipes: the VS Code recipe is valid JSON that starts
// `locklint lsp` for Go, and the Helix recipe names the same command.
func TestEditorRecipes(t *testing.T) {
	docs := filepath.Join("..", "..", "docs", "editors")
	data, err := os.ReadFile(filepath.Join(docs, "vscode-lsp-settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vscode struct {
		Command   string         `json:"glspc.server.command"`
		Args      []string       `json:"glspc.server.commandArguments"`
		Languages []string       `json:"glspc.server.languageId"`
		Init      map[string]any `json:"glspc.server.initializationOptions"`
	}
	if err := json.Unmarshal(data, &vscode); err != nil {
		t.Fatalf("vscode-lsp-settings.json: %v", err)
	}
	if vscode.Command != "locklint" || !slices.Equal(vscode.Args, []string{"lsp"}) || !slices.Equal(vscode.Languages, []string{"go"}) || vscode.Init["locklint"] == nil {
		t.Errorf("vscode-lsp-settings.json: %+v", vscode)
	}
	helix, err := os.ReadFile(filepath.Join(docs, "helix-languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[language-server.locklint]", `command = "locklint"`, `args = ["lsp"]`, `language-servers = ["gopls", "locklint"]`} {
		if !strings.Contains(string(helix), want) {
			t.Errorf("helix-languages.toml lacks %s", want)
		}
	}
	// Zed: the extension registers the server for Go, starts `locklint
	// lsp` by default and hands the user's settings on under "locklint",
	// the shape configure reads.
	zedManifest, err := os.ReadFile(filepath.Join(docs, "zed", "extension.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[language_servers.locklint]", `languages = ["Go"]`, "schema_version = 1"} {
		if !strings.Contains(string(zedManifest), want) {
			t.Errorf("zed/extension.toml lacks %s", want)
		}
	}
	zedSrc, err := os.ReadFile(filepath.Join(docs, "zed", "src", "lib.rs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`const SERVER: &str = "locklint";`, `vec!["lsp".to_string()]`, `json!({ "locklint": v })`, "worktree.shell_env()", "register_extension!"} {
		if !strings.Contains(string(zedSrc), want) {
			t.Errorf("zed/src/lib.rs lacks %s", want)
		}
	}
	if luac, err := exec.LookPath("luac"); err == nil {
		if out, err := exec.Command(luac, "-p", filepath.Join(docs, "locklint-lsp.lua")).CombinedOutput(); err != nil {
			t.Errorf("locklint-lsp.lua: %v\n%s", err, out)
		}
	}
}
