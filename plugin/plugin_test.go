package plugin_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/all"
	"github.com/locklint/locklint/plugin"
)

func newFlagged() (*analysis.Analyzer, *int, *string, *bool) {
	a := &analysis.Analyzer{
		Name: "plugintestflags",
		Doc:  "test analyzer with flags",
		Run:  func(*analysis.Pass) (any, error) { return nil, nil },
	}
	n := a.Flags.Int("depth", 1, "how deep")
	s := a.Flags.String("names", "", "comma-separated names")
	b := a.Flags.Bool("strict", false, "be strict")
	return a, n, s, b
}

func TestEveryAnalyzerIsALinter(t *testing.T) {
	for _, a := range all.Analyzers() {
		newPlugin, err := register.GetPlugin(a.Name)
		if err != nil {
			t.Errorf("%s is not registered: %v", a.Name, err)
			continue
		}
		p, err := newPlugin(nil)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		as, err := p.BuildAnalyzers()
		if err != nil || len(as) != 1 || as[0].Name != a.Name {
			t.Errorf("%s builds %v, %v; want itself alone", a.Name, as, err)
		}
		if p.GetLoadMode() != register.LoadModeTypesInfo {
			t.Errorf("%s load mode %q, want %q", a.Name, p.GetLoadMode(), register.LoadModeTypesInfo)
		}
	}
}

func TestSettingsSetFlags(t *testing.T) {
	a, depth, names, strict := newFlagged()
	plugin.Register(a)
	newPlugin, err := register.GetPlugin("plugintestflags")
	if err != nil {
		t.Fatal(err)
	}
	// What golangci-lint passes: the YAML settings decoded to generic values.
	p, err := newPlugin(map[string]any{"depth": 1e6, "names": []any{"a", "b"}, "strict": true})
	if err != nil {
		t.Fatal(err)
	}
	if *depth != 1000000 || *names != "a,b" || !*strict {
		t.Errorf("flags after settings: depth=%d names=%q strict=%v", *depth, *names, *strict)
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) != 1 || as[0].Name != "plugintestflags" || as[0] == a {
		t.Errorf("BuildAnalyzers = %v, %v; want the wrapped analyzer", as, err)
	}

	for wantErr, settings := range map[string]map[string]any{
		`unknown setting "dept"`:    {"dept": 2},
		`setting "depth"`:           {"depth": "deep"},
		`want a string, number, bo`: {"depth": map[string]any{"x": 1}},
	} {
		if _, err := newPlugin(settings); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("settings %v: error %v, want one containing %q", settings, err, wantErr)
		}
	}
}

// TestExampleConfig checks that docs/golangci.example.yml enables exactly
// the registered analyzers, each as a module plugin described by its Doc.
func TestExampleConfig(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "golangci.example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	enabled := regexp.MustCompile(`(?m)^    - (\w+)$`).FindAllStringSubmatch(text, -1)
	custom := regexp.MustCompile(`(?m)^      (\w+):\n        type: module\n        description: "([^"]*)"$`).FindAllStringSubmatch(text, -1)
	var names, customNames []string
	for _, m := range enabled {
		names = append(names, m[1])
	}
	descriptions := make(map[string]string)
	for _, m := range custom {
		customNames = append(customNames, m[1])
		descriptions[m[1]] = m[2]
	}
	var want []string
	for _, a := range all.Analyzers() {
		want = append(want, a.Name)
		first, _, _ := strings.Cut(strings.TrimSpace(a.Doc), "\n\n")
		if d := strings.Join(strings.Fields(first), " "); descriptions[a.Name] != d {
			t.Errorf("%s: description %q, want the Doc's title %q", a.Name, descriptions[a.Name], d)
		}
	}
	slices.Sort(want)
	for _, got := range [][]string{names, customNames} {
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("example config has linters %v, want the registered %v", got, want)
		}
	}
}
