package stores

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestIsWriteSQL(t *testing.T) {
	for q, want := range map[string]bool{
		"UPDATE t SET a = 1":                          true,
		"  insert into t values (1)":                  true,
		"/* hint */ DELETE FROM t":                    true,
		"-- note\nREPLACE INTO t VALUES (1)":          true,
		"WITH x AS (SELECT 1) UPDATE t SET a = 1":     true,
		"SELECT * FROM t":                             false,
		"select update_time from t":                   false,
		"WITH x AS (SELECT 1) SELECT * FROM x":        false,
		"MERGE INTO t USING s ON t.id = s.id":         true,
		"%v":                                          false,
		"UPDATE t SET a = 1 WHERE id = ? AND b = ?":   true,
		"updated_rows":                                false,
		"INSERT INTO t (a) SELECT a FROM s RETURNING": true,
		"TRUNCATE TABLE t, u RESTART IDENTITY":        true,
		"truncated_at":                                false,
	} {
		if got := IsWriteSQL(q); got != want {
			t.Errorf("IsWriteSQL(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestHasCondition(t *testing.T) {
	f := &ast.Ident{Name: "f"}
	id := &ast.Ident{Name: "id"}
	reaches := func(e ast.Expr) bool { return e == f }
	for _, c := range []struct {
		q      string
		params []ast.Expr
		named  bool
		want   bool
	}{
		{"UPDATE t SET a = 1 WHERE id = ? AND fence < ?", []ast.Expr{id, f}, false, true},
		{"UPDATE t SET a = 1 WHERE id = ? AND fence < ?", []ast.Expr{f, id}, false, false}, // bound to id
		{"UPDATE t SET fence = ? WHERE id = ?", []ast.Expr{f, id}, false, false},
		{"UPDATE t SET a = 1 WHERE id = $2 AND t.fence <= $1", []ast.Expr{f, id}, false, true},
		{"UPDATE t SET a = 1 WHERE id = $1 AND $2 > `fence_token`", []ast.Expr{id, f}, false, true},
		{"UPDATE t SET a = 1 WHERE id = :id AND epoch < :epoch", []ast.Expr{f}, true, true},
		{"UPDATE t SET a = 1 WHERE id = ? AND fence <> ?", []ast.Expr{id, f}, false, false},
		{"UPDATE t SET a = 1 WHERE id = ? AND created < ?", []ast.Expr{id, f}, false, false},
		{"INSERT INTO t VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET a = 1 WHERE t.fence < excluded.fence", []ast.Expr{id, f}, false, true},
	} {
		if got := hasCondition(c.q, c.params, false, c.named, reaches); got != c.want {
			t.Errorf("hasCondition(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// A logger downloaded from the module proxy writes to stderr or its log
// file: those file writes stay out of its facts; its SQL, and every write
// of the project's own modules, do not.
func TestExportableDropsDependencyFileWrites(t *testing.T) {
	f := &WriteFact{Writes: []FactWrite{{Kind: File, What: "(*os.File).Write"}, {Kind: SQL, What: "database/sql DB.ExecContext"}}}
	for _, tc := range []struct {
		name   string
		module *analysis.Module
		want   []Kind
	}{
		{"no module (GOPATH)", nil, []Kind{File, SQL}},
		{"main module", &analysis.Module{Path: "example.com/app", Main: true}, []Kind{File, SQL}},
		{"dependency", &analysis.Module{Path: "k8s.io/klog/v2", Version: "v2.130.1"}, []Kind{SQL}},
	} {
		got := exportable(&analysis.Pass{Module: tc.module}, f)
		var kinds []Kind
		if got != nil {
			for _, w := range got.Writes {
				kinds = append(kinds, w.Kind)
			}
		}
		if !slices.Equal(kinds, tc.want) {
			t.Errorf("%s: kinds %v, want %v", tc.name, kinds, tc.want)
		}
	}
	// Loaders that leave Module nil: the file's directory in the module
	// cache tells.
	fset := token.NewFileSet()
	for dir, want := range map[string]int{
		"/root/go/pkg/mod/k8s.io/klog/v2@v2.130.1": 1,
		"/home/me/src/app/internal/store":          2,
		"/home/me/src/app@home/store":              2,
	} {
		file, err := parser.ParseFile(fset, dir+"/x.go", "package x", 0)
		if err != nil {
			t.Fatal(err)
		}
		got := exportable(&analysis.Pass{Fset: fset, Files: []*ast.File{file}}, f)
		if got == nil || len(got.Writes) != want {
			t.Errorf("%s: %v, want %d writes", dir, got, want)
		}
	}
	onlyFile := &WriteFact{Writes: []FactWrite{{Kind: File}}}
	if got := exportable(&analysis.Pass{Module: &analysis.Module{Version: "v1.0.0"}}, onlyFile); got != nil {
		t.Errorf("a dependency's file-only fact exported: %v", got)
	}
}

func TestSelfGuarded(t *testing.T) {
	for q, want := range map[string]bool{
		"UPDATE oai_accounts SET oai_device_id = ? WHERE id = ? AND deleted_at IS NULL AND (oai_device_id = '' OR oai_device_id IS NULL)": true,
		"UPDATE orders SET status = 'done' WHERE id = ? AND status = 'pending'":                                                           true,
		"update t set owner = $1 where id = $2 and owner is null":                                                                         true,
		"UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?":                                                         false,
		"UPDATE orders SET status = 'done' WHERE id = ?":                                                                                  false,
		"UPDATE t SET a = ?, b = ? WHERE id = ? AND c IS NULL":                                                                            false,
		"DELETE FROM t WHERE owner IS NULL":                                                                                               false,
		"UPDATE t SET a = ? WHERE ta = ?":                                                                                                 false,
		"UPDATE jobs SET status = 2 WHERE id = ? AND status = 1":                                                                          true,
		"UPDATE jobs SET status = 2 WHERE id = 1":                                                                                         false,
	} {
		if got := selfGuarded(q); got != want {
			t.Errorf("selfGuarded(%q) = %v, want %v", q, got, want)
		}
	}
}
