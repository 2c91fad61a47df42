package lifecycle_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/testutil"
	"github.com/locklint/locklint/analyzers/lockexpiry"
	"github.com/locklint/locklint/analyzers/lockrelease"
)

// synthetic writes a package of files×funcs functions: one in four uses
// Redis locks in the shapes of real code (go-redis, redigo, rueidis,
// helpers, scripts), the rest is ordinary code the analyzers must skim.
func synthetic(b *testing.B, files, funcs int) string {
	root := testutil.GOPATH(b)
	dir := filepath.Join(root, "src", "big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	shapes := []string{
		`func f%[1]d(ctx context.Context, id, tok string) {
	key := fmt.Sprintf("lock:%%s:%[1]d", id)
	if rdb.SetNX(ctx, key, tok, 0).Val() {
		rdb.Expire(ctx, key, time.Minute)
		defer rdb.Del(ctx, key)
	}
}`,
		`func f%[1]d(c redigo.Conn, id, tok string) error {
	if _, err := c.Do("SET", "job:%[1]d:"+id, tok, "NX", "PX", 30000); err != nil {
		return err
	}
	_, err := release.Do(c, "job:%[1]d:"+id, tok)
	return err
}`,
		`func f%[1]d(ctx context.Context, c rueidis.Client, tok string) {
	c.Do(ctx, c.B().Set().Key("r%[1]d").Value(tok).Nx().Px(time.Second).Build())
	c.Do(ctx, c.B().Del().Key("r%[1]d").Build())
}`,
		`func f%[1]d(ctx context.Context, id string) {
	if acquire(ctx, "h%[1]d:"+id) {
		defer drop(ctx, "h%[1]d:"+id)
	}
}`,
	}
	for i := 0; i < files; i++ {
		var sb strings.Builder
		sb.WriteString("package big\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"strings\"\n\t\"time\"\n\n\tredigo \"github.com/gomodule/redigo/redis\"\n\t\"github.com/redis/rueidis\"\n)\n\n")
		sb.WriteString("var _ = context.Background\nvar _ = fmt.Sprint\nvar _ = strings.Join\nvar _ = time.Second\nvar _ redigo.Conn\nvar _ rueidis.Client\n\n")
		for j := 0; j < funcs; j++ {
			n := i*funcs + j
			if n%4 == 0 {
				fmt.Fprintf(&sb, shapes[(n/4)%len(shapes)]+"\n\n", n)
				continue
			}
			fmt.Fprintf(&sb, `func f%[1]d(xs []string) string {
	var out []string
	for i, x := range xs {
		if i%%2 == 0 {
			out = append(out, strings.ToUpper(x))
		} else {
			out = append(out, fmt.Sprintf("%%d:%%s", i, x))
		}
	}
	return strings.Join(out, ",")
}

`, n)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	common := `package big

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

var release = redigo.NewScript(1, ` + "`" + `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0` + "`" + `)

func acquire(ctx context.Context, key string) bool { return rdb.SetNX(ctx, key, "1", time.Second).Val() }

func drop(ctx context.Context, key string) { rdb.Del(ctx, key) }
`
	if err := os.WriteFile(filepath.Join(dir, "common.go"), []byte(common), 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

func load(b *testing.B, root string) []*packages.Package {
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  root,
		Env:  append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "big")
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("synthetic package has errors")
	}
	return pkgs
}

// BenchmarkAnalyzers runs lockexpiry and lockrelease (with the shared
// lifecycle pass) over a synthetic 40-file, 2,000-function package, beside
// x/tools' printf pass on the same package as a yardstick. Loading and
// type-checking are outside the timer; each iteration analyses the whole
// package and its dependencies from scratch.
func BenchmarkAnalyzers(b *testing.B) {
	pkgs := load(b, synthetic(b, 40, 50))
	for _, bc := range []struct {
		name string
		as   []*analysis.Analyzer
	}{
		{"locklint", []*analysis.Analyzer{lockexpiry.Analyzer, lockrelease.Analyzer}},
		{"lifecycle", []*analysis.Analyzer{lifecycle.Analyzer}},
		{"printf", []*analysis.Analyzer{printf.Analyzer}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			diags := 0
			for b.Loop() {
				res, err := checker.Analyze(bc.as, pkgs, nil)
				if err != nil {
					b.Fatal(err)
				}
				diags = 0
				for _, act := range res.Roots {
					if act.Err != nil {
						b.Fatal(act.Err)
					}
					diags += len(act.Diagnostics)
				}
			}
			b.ReportMetric(float64(diags), "diags")
		})
	}
}
