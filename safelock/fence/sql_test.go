package fence_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/safelock/fence"
	_ "modernc.org/sqlite"
)

var accounts = fence.Table{Name: "accounts", IDColumn: "id", FenceColumn: "fence"}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// openDB opens a file-backed SQLite database in the test's directory, so
// that several connections share it (an in-memory one is per connection),
// with the accounts table and a history of accepted writes.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	dsn := "file:" + filepath.Join(t.TempDir(), "fence.db") +
		"?_pragma=busy_timeout(20000)&_pragma=journal_mode(WAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	for _, q := range []string{
		`CREATE TABLE accounts (id TEXT PRIMARY KEY, balance INTEGER NOT NULL DEFAULT 0, owner TEXT, fence INTEGER)`,
		`CREATE TABLE history (seq INTEGER PRIMARY KEY AUTOINCREMENT, fence INTEGER NOT NULL)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

type row struct {
	balance int64
	owner   sql.NullString
	fence   sql.NullInt64
}

func readRow(t testing.TB, db *sql.DB, id string) row {
	t.Helper()
	var r row
	err := db.QueryRow(`SELECT balance, owner, fence FROM accounts WHERE id = ?`, id).Scan(&r.balance, &r.owner, &r.fence)
	if err != nil {
		t.Fatalf("reading row %q: %v", id, err)
	}
	return r
}

func mustInsert(t testing.TB, db *sql.DB, id string) {
	t.Helper()
	if _, err := db.Exec(`INSERT INTO accounts (id, balance) VALUES (?, 0)`, id); err != nil {
		t.Fatal(err)
	}
}

// update runs a fenced Update and fails the test on error.
func update(t testing.TB, db fence.Execer, id string, f, balance int64, owner string) bool {
	t.Helper()
	ok, err := accounts.Update(testCtx(t), db, id, f, fence.Set("balance", balance), fence.Set("owner", owner))
	if err != nil {
		t.Fatalf("Update(fence %d): %v", f, err)
	}
	return ok
}

func TestUpdateFenceRule(t *testing.T) {
	db := openDB(t)
	mustInsert(t, db, "a") // fence NULL: lower than any fence

	steps := []struct {
		fence   int64
		balance int64
		want    bool
		why     string
	}{
		{5, 10, true, "first fenced write on a NULL fence"},
		{3, 20, false, "stale holder (lower fence)"},
		{5, 30, true, "same grant writes again (equal fence)"},
		{7, 40, true, "newer holder"},
		{6, 50, false, "stale holder after a newer one"},
		{5, 60, false, "the old grant after the newer one wrote"},
		{7, 70, true, "newer holder's second write"},
	}
	for _, s := range steps {
		before := readRow(t, db, "a")
		got := update(t, db, "a", s.fence, s.balance, fmt.Sprint("holder", s.fence))
		if got != s.want {
			t.Fatalf("%s: Update(fence %d) = %v, want %v", s.why, s.fence, got, s.want)
		}
		after := readRow(t, db, "a")
		if s.want {
			if after.balance != s.balance || after.fence.Int64 != s.fence || after.owner.String != fmt.Sprint("holder", s.fence) {
				t.Fatalf("%s: row after accepted write = %+v", s.why, after)
			}
		} else if after != before {
			t.Fatalf("%s: rejected write changed the row: %+v -> %+v", s.why, before, after)
		}
	}
}

func TestUpdateMissingRow(t *testing.T) {
	db := openDB(t)
	if update(t, db, "absent", 1, 1, "x") {
		t.Fatal("Update of a missing row reported accepted")
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM accounts`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("Update created rows: %d, %v", n, err)
	}
}

func TestUpdateOnlyFence(t *testing.T) {
	// With no columns, Update claims the row: later writes with a lower
	// fence are refused even before the new holder writes data.
	db := openDB(t)
	mustInsert(t, db, "a")
	ok, err := accounts.Update(testCtx(t), db, "a", 9)
	if err != nil || !ok {
		t.Fatalf("fence-only Update: %v, %v", ok, err)
	}
	if update(t, db, "a", 8, 1, "stale") {
		t.Fatal("write with fence 8 accepted after fence 9 claimed the row")
	}
}

func TestUpdateInTxAndConn(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	mustInsert(t, db, "a")

	// In a transaction: the fenced update is part of it and rolls back
	// with it.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !update(t, tx, "a", 4, 100, "tx") {
		t.Fatal("Update in tx rejected")
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if r := readRow(t, db, "a"); r.fence.Valid || r.balance != 0 {
		t.Fatalf("rolled-back write is visible: %+v", r)
	}

	tx, err = db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !update(t, tx, "a", 4, 100, "tx") {
		t.Fatal("Update in tx rejected")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if update(t, conn, "a", 3, 1, "conn-stale") {
		t.Fatal("stale Update through *sql.Conn accepted")
	}
	if !update(t, conn, "a", 6, 200, "conn") {
		t.Fatal("newer Update through *sql.Conn rejected")
	}
	if r := readRow(t, db, "a"); r.fence.Int64 != 6 || r.balance != 200 {
		t.Fatalf("row = %+v, want fence 6 balance 200", r)
	}
}

func TestUpsert(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	upsert := func(f int64, set ...fence.Column) bool {
		t.Helper()
		ok, err := accounts.Upsert(ctx, db, "u", f, set...)
		if err != nil {
			t.Fatalf("Upsert(fence %d): %v", f, err)
		}
		return ok
	}
	if !upsert(3, fence.Set("balance", 30), fence.Set("owner", "three")) {
		t.Fatal("Upsert of an absent row rejected")
	}
	if r := readRow(t, db, "u"); r.fence.Int64 != 3 || r.balance != 30 || r.owner.String != "three" {
		t.Fatalf("inserted row = %+v", r)
	}
	if upsert(2, fence.Set("balance", 20)) {
		t.Fatal("Upsert with a lower fence accepted")
	}
	if !upsert(3, fence.Set("balance", 31)) {
		t.Fatal("Upsert with an equal fence rejected")
	}
	// Columns left out keep their values on update.
	if !upsert(5, fence.Set("balance", 50)) {
		t.Fatal("Upsert with a higher fence rejected")
	}
	if r := readRow(t, db, "u"); r.fence.Int64 != 5 || r.balance != 50 || r.owner.String != "three" {
		t.Fatalf("row after upserts = %+v, want fence 5 balance 50 owner three", r)
	}
	// Insert with only the fence: other columns take their defaults.
	ok, err := accounts.Upsert(ctx, db, "v", 1)
	if err != nil || !ok {
		t.Fatalf("fence-only Upsert: %v, %v", ok, err)
	}
	if r := readRow(t, db, "v"); r.fence.Int64 != 1 || r.balance != 0 || r.owner.Valid {
		t.Fatalf("fence-only insert = %+v", r)
	}
	// A NULL fence counts as lowest, for Upsert too.
	mustInsert(t, db, "n")
	if !upsert2(t, db, "n", 1) {
		t.Fatal("Upsert over a NULL fence rejected")
	}
}

func upsert2(t *testing.T, db *sql.DB, id string, f int64) bool {
	t.Helper()
	ok, err := accounts.Upsert(testCtx(t), db, id, f, fence.Set("owner", "x"))
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestDollarPlaceholders(t *testing.T) {
	// SQLite accepts $N parameters too, so the PostgreSQL form runs here.
	db := openDB(t)
	ctx := testCtx(t)
	pg := accounts
	pg.Dollar = true
	ok, err := pg.Upsert(ctx, db, "d", 2, fence.Set("balance", 7), fence.Set("owner", "pg"))
	if err != nil || !ok {
		t.Fatalf("Upsert with $N: %v, %v", ok, err)
	}
	ok, err = pg.Update(ctx, db, "d", 1, fence.Set("balance", 8))
	if err != nil || ok {
		t.Fatalf("stale Update with $N: %v, %v; want rejected", ok, err)
	}
	ok, err = pg.Update(ctx, db, "d", 2, fence.Set("balance", 9))
	if err != nil || !ok {
		t.Fatalf("Update with $N: %v, %v", ok, err)
	}
	if r := readRow(t, db, "d"); r.balance != 9 || r.owner.String != "pg" || r.fence.Int64 != 2 {
		t.Fatalf("row = %+v", r)
	}
}

func TestSchemaQualifiedName(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	qualified := fence.Table{Name: "main.accounts", IDColumn: "id", FenceColumn: "fence"}
	ok, err := qualified.Upsert(ctx, db, "q", 1, fence.Set("balance", 1))
	if err != nil || !ok {
		t.Fatalf("Upsert on main.accounts: %v, %v", ok, err)
	}
	ok, err = qualified.Update(ctx, db, "q", 2, fence.Set("balance", 2))
	if err != nil || !ok {
		t.Fatalf("Update on main.accounts: %v, %v", ok, err)
	}
}

func TestBadInputRejected(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	mustInsert(t, db, "a")
	bad := []struct {
		name  string
		table fence.Table
		f     int64
		set   []fence.Column
		db    fence.Execer
	}{
		{"injection in table", fence.Table{Name: "accounts; DROP TABLE history; --", IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"space in table", fence.Table{Name: "acc ounts", IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"empty table", fence.Table{IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"two dots", fence.Table{Name: "a.b.c", IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"empty schema", fence.Table{Name: ".accounts", IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"quoted table", fence.Table{Name: `"accounts"`, IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"backtick", fence.Table{Name: "`accounts`", IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"leading digit", fence.Table{Name: "1accounts", IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"non-ASCII", fence.Table{Name: "comptés", IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"too long", fence.Table{Name: strings.Repeat("a", 64), IDColumn: "id", FenceColumn: "fence"}, 1, nil, db},
		{"dot in id column", fence.Table{Name: "accounts", IDColumn: "accounts.id", FenceColumn: "fence"}, 1, nil, db},
		{"comment in fence column", fence.Table{Name: "accounts", IDColumn: "id", FenceColumn: "fence--"}, 1, nil, db},
		{"fence column is id column", fence.Table{Name: "accounts", IDColumn: "id", FenceColumn: "ID"}, 1, nil, db},
		{"injection in set column", accounts, 1, []fence.Column{fence.Set("balance = 0 WHERE 1=1; --", 1)}, db},
		{"empty set column", accounts, 1, []fence.Column{fence.Set("", 1)}, db},
		{"set writes fence", accounts, 1, []fence.Column{fence.Set("Fence", 1)}, db},
		{"set writes id", accounts, 1, []fence.Column{fence.Set("id", "b")}, db},
		{"column twice", accounts, 1, []fence.Column{fence.Set("balance", 1), fence.Set("BALANCE", 2)}, db},
		{"zero fence", accounts, 0, nil, db},
		{"negative fence", accounts, -5, nil, db},
		{"nil db", accounts, 1, nil, nil},
		{"typed nil *sql.DB", accounts, 1, nil, (*sql.DB)(nil)},
		{"typed nil *sql.Tx", accounts, 1, nil, (*sql.Tx)(nil)},
	}
	for _, b := range bad {
		for op, call := range map[string]func() (bool, error){
			"Update": func() (bool, error) { return b.table.Update(ctx, b.db, "a", b.f, b.set...) },
			"Upsert": func() (bool, error) { return b.table.Upsert(ctx, b.db, "a", b.f, b.set...) },
		} {
			ok, err := call()
			if ok || !errors.Is(err, fence.ErrInvalid) {
				t.Errorf("%s %s: got %v, %v; want ErrInvalid", op, b.name, ok, err)
			}
		}
	}
	// Nothing ran: the history table is still there, the row untouched.
	if _, err := db.Exec(`SELECT count(*) FROM history`); err != nil {
		t.Fatalf("history table: %v", err)
	}
	if r := readRow(t, db, "a"); r.fence.Valid || r.balance != 0 {
		t.Fatalf("row changed by rejected calls: %+v", r)
	}
	if err := accounts.Validate(); err != nil {
		t.Fatalf("Validate on a good table: %v", err)
	}
}

func TestDatabaseErrorsSurface(t *testing.T) {
	db := openDB(t)
	missing := fence.Table{Name: "no_such_table", IDColumn: "id", FenceColumn: "fence"}
	ok, err := missing.Update(testCtx(t), db, "a", 1)
	if ok || err == nil || errors.Is(err, fence.ErrInvalid) {
		t.Fatalf("Update on a missing table: %v, %v; want the database's error", ok, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ok, err = accounts.Update(ctx, db, "a", 1)
	if ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("Update with a cancelled ctx: %v, %v; want context.Canceled", ok, err)
	}
}

// TestConcurrentWriters races writers with random fences on one row. Each
// write runs in a transaction that also appends the fence to a history when
// the fenced update was accepted, so the history is in commit order. A
// correct fence check gives a non-decreasing history ending at the highest
// fence anyone tried.
func TestConcurrentWriters(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	mustInsert(t, db, "hot")
	const writers, writes = 8, 25
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		maxTried int64
		accepted int
		errs     = make(chan error, writers)
	)
	for w := range writers {
		wg.Go(func() {
			for i := range writes {
				// Fences rise with i but overlap across writers, so
				// many writes are accepted and many refused.
				f := int64(i)*4 + rand.Int64N(16) + 1
				mu.Lock()
				maxTried = max(maxTried, f)
				mu.Unlock()
				ok, err := fencedTx(ctx, db, f, int64(w*1000+i))
				if err != nil {
					errs <- err
					return
				}
				if ok {
					mu.Lock()
					accepted++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT fence FROM history ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var history []int64
	for rows.Next() {
		var f int64
		if err := rows.Scan(&f); err != nil {
			t.Fatal(err)
		}
		history = append(history, f)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(history) != accepted {
		t.Fatalf("history has %d writes, writers saw %d accepted", len(history), accepted)
	}
	for i := 1; i < len(history); i++ {
		if history[i] < history[i-1] {
			t.Fatalf("write with fence %d accepted after fence %d (history %v)", history[i], history[i-1], history)
		}
	}
	if r := readRow(t, db, "hot"); r.fence.Int64 != maxTried || history[len(history)-1] != maxTried {
		t.Fatalf("final fence %d, last accepted %d, highest tried %d", r.fence.Int64, history[len(history)-1], maxTried)
	}
	t.Logf("%d of %d writes accepted", accepted, writers*writes)
}

func fencedTx(ctx context.Context, db *sql.DB, f, balance int64) (bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback() }()
	ok, err := accounts.Update(ctx, tx, "hot", f, fence.Set("balance", balance))
	if err != nil || !ok {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO history (fence) VALUES (?)`, f); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// TestConcurrentUpserts races writers with distinct fences to create one
// row; whoever commits, the row ends with the highest fence and its value.
func TestConcurrentUpserts(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	const writers = 16
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			f := int64(w + 1)
			if _, err := accounts.Upsert(ctx, db, "new", f, fence.Set("balance", f*10)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if r := readRow(t, db, "new"); r.fence.Int64 != writers || r.balance != writers*10 {
		t.Fatalf("row = %+v, want fence %d balance %d", r, writers, writers*10)
	}
}

func BenchmarkUpdate(b *testing.B) {
	db := openDB(b)
	mustInsert(b, db, "a")
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if _, err := accounts.Update(ctx, db, "a", int64(i+1), fence.Set("balance", i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlainUpdate is the baseline for BenchmarkUpdate: the same
// UPDATE without the fence.
func BenchmarkPlainUpdate(b *testing.B) {
	db := openDB(b)
	mustInsert(b, db, "a")
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if _, err := db.ExecContext(ctx, `UPDATE accounts SET balance = ? WHERE id = ?`, i, "a"); err != nil {
			b.Fatal(err)
		}
	}
}
