package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bigPackage writes a package of n files of go-redis lock code (each with
// findings, and about a hundred lines) into the demo module and returns
// the first file.
func bigPackage(t testing.TB, root string, n int) string {
	t.Helper()
	dir := filepath.Join(root, "big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, `package big

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Job%[1]d runs job %[1]d under a lock with the usual bugs.
func Job%[1]d(ctx context.Context, rdb *redis.Client, id int) error {
	key := "lock:job%[1]d:" + strconv.Itoa(id)
	ok, err := rdb.SetNX(ctx, key, "1", 0).Result()
	if err != nil || !ok {
		return err
	}
	rdb.Expire(ctx, key, 30*time.Second)
	defer rdb.Del(ctx, key)
	return work%[1]d(ctx, rdb, id)
}
`, i)
		for j := range 12 {
			fmt.Fprintf(&b, `
func helper%[1]d_%[2]d(x int) int {
	if x > %[2]d {
		return x - %[2]d
	}
	return x + %[1]d
}
`, i, j)
		}
		fmt.Fprintf(&b, `
func work%[1]d(ctx context.Context, rdb *redis.Client, id int) error {
	return rdb.Set(ctx, "result:%[1]d", helper%[1]d_0(id), time.Hour).Err()
}
`, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("job%02d.go", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "job00.go")
}

// BenchmarkSaveToDiagnostics measures, on a warmed-up server, the time from
// a save of a changed file in a package of 50 files to the diagnostics of
// that save (reported as ms/save; ns/op is the same time).
func BenchmarkSaveToDiagnostics(b *testing.B) {
	root := demoModule(b)
	file := bigPackage(b, root, 50)
	uri := fileURI(file)
	c := startServer(b, Options{})
	c.initialize(root, nil)
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1}})
	_, seen := c.waitDiags(uri, 0, func(ds []diagnostic) bool { return has(ds, 14, "lockexpiry") })
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// A change the analysis must see (the finding's line moves), and
		// new content each time, so go vet's cache cannot answer.
		edited := strings.Replace(string(src), "\nfunc Job0(", strings.Repeat("\n", i%2+2)+"func Job0(", 1) + fmt.Sprintf("// save %d\n", i)
		if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
			b.Fatal(err)
		}
		line := 15 + i%2
		start := time.Now()
		c.send("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
		_, seen = c.waitDiags(uri, seen, func(ds []diagnostic) bool { return has(ds, line, "lockexpiry") })
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/save")
}
