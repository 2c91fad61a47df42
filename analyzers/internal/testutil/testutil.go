// Package testutil builds analysistest GOPATH trees for locklint analyzers.
//
// The fake client packages every analyzer test can import live once, in
// analyzers/internal/testdata/src (go-redis v9 at github.com/redis/go-redis/v9,
// v8 at github.com/go-redis/redis/v8, v6 at github.com/go-redis/redis,
// redigo at github.com/gomodule/redigo/redis and github.com/garyburd/redigo/redis,
// rueidis at github.com/redis/rueidis). [GOPATH] copies them and an
// analyzer's own testdata/src into one temporary tree, so
//
//	analysistest.Run(t, testutil.GOPATH(t, "testdata"), Analyzer, "a")
//
// sees both. Golden files are copied along and compared in place.
package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Shared returns the directory holding the shared fake client packages.
func Shared() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata")
}

// GOPATH returns a temporary GOPATH root whose src holds the shared fakes
// and the src trees of each dir (relative to the test's working directory).
func GOPATH(t testing.TB, dirs ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range append([]string{Shared()}, dirs...) {
		src := filepath.Join(d, "src")
		err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(src, path)
			if err != nil {
				return err
			}
			dst := filepath.Join(root, "src", rel)
			if e.IsDir() {
				return os.MkdirAll(dst, 0o755)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		})
		if err != nil {
			t.Fatalf("copying testdata %s: %v", src, err)
		}
	}
	return root
}
