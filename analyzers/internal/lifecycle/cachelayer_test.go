package lifecycle_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

func TestCacheLayer(t *testing.T) {
	for _, c := range []struct {
		downloaded bool
		pkg, fn    string
		want       bool
	}{
		{true, "github.com/zeromicro/go-zero/core/stores/cache", "setCacheWithNotFound", true},
		{true, "example.com/lib/store", "fillCache", true},
		{false, "example.com/app/cache", "setCacheWithNotFound", false},             // the project's own code: judged by its use
		{true, "example.com/lib/store", "cacheLock", false},                         // named as a lock
		{true, "example.com/lib/store", "TryAcquire", false},                        // not named as a cache
		{true, "github.com/zeromicro/go-zero/core/stores/redis", "setCache", false}, // a lock library
	} {
		if got := lifecycle.CacheLayer(c.downloaded, c.pkg, c.fn); got != c.want {
			t.Errorf("cacheLayer(%v, %q, %q) = %v, want %v", c.downloaded, c.pkg, c.fn, got, c.want)
		}
	}
}

func TestDownloaded(t *testing.T) {
	fset := token.NewFileSet()
	file := func(name string) []*ast.File {
		f, err := parser.ParseFile(fset, name, "package p", 0)
		if err != nil {
			t.Fatal(err)
		}
		return []*ast.File{f}
	}
	for _, c := range []struct {
		pass *analysis.Pass
		want bool
	}{
		{&analysis.Pass{Module: &analysis.Module{Path: "github.com/zeromicro/go-zero", Version: "v1.9.4"}}, true},
		{&analysis.Pass{Module: &analysis.Module{Path: "example.com/app"}}, false},
		{&analysis.Pass{Fset: fset, Files: file("/root/go/pkg/mod/github.com/zeromicro/go-zero@v1.9.4/core/stores/cache/cachenode.go")}, true},
		{&analysis.Pass{Fset: fset, Files: file("/src/app/internal/cache/cache.go")}, false},
		{&analysis.Pass{Fset: fset, Files: file("/src/app@work/cache.go")}, false},
	} {
		if got := lifecycle.Downloaded(c.pass); got != c.want {
			t.Errorf("Downloaded(%v, %v) = %v, want %v", c.pass.Module, c.pass.Files, got, c.want)
		}
	}
}
