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

// accounts records the writer's token, so a grant may write a row again
// with its fence; strict has no token column, so a fence writes once.
var (
	accounts = fence.Table{Name: "accounts", IDColumn: "id", FenceColumn: "fence", TokenColumn: "token"}
	strict   = fence.Table{Name: "accounts", IDColumn: "id", FenceColumn: "fence"}
)

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
		`CREATE TABLE accounts (id TEXT PRIMARY KEY, balance INTEGER NOT NULL DEFAULT 0, owner TEXT, fence INTEGER, token TEXT)`,
		`CREATE TABLE history (seq INTEGER PRIMARY KEY AUTOINCREMENT, fence INTEGER NOT NULL, token TEXT NOT NULL)`,
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
	token   sql.NullString
}

func readRow(t testing.TB, db *sql.DB, id string) row {
	t.Helper()
	var r row
	err := db.QueryRow(`SELECT balance, owner, fence, token FROM accounts WHERE id = ?`, id).Scan(&r.balance, &r.owner, &r.fence, &r.token)
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

// update runs a fenced Update of accounts as grant (f, token) and fails
// the test on error.
func update(t testing.TB, db fence.Execer, id string, f int64, token string, balance int64) bool {
	t.Helper()
	ok, err := accounts.Update(testCtx(t), db, id, fence.Of(f, token), fence.Set("balance", balance), fence.Set("owner", token))
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
		token   string
		balance int64
		want    bool
		why     string
	}{
		{5, "g5", 10, true, "first fenced write on a NULL fence"},
		{3, "g3", 20, false, "stale holder (lower fence)"},
		{5, "g5", 30, true, "the same grant writes again"},
		{5, "other", 35, false, "a second grant with the same fence (issued twice)"},
		{7, "g7", 40, true, "newer holder"},
		{6, "g6", 50, false, "stale holder after a newer one"},
		{5, "g5", 60, false, "the old grant after the newer one wrote"},
		{7, "g7", 70, true, "newer holder's second write"},
	}
	for _, s := range steps {
		before := readRow(t, db, "a")
		got := update(t, db, "a", s.fence, s.token, s.balance)
		if got != s.want {
			t.Fatalf("%s: Update(fence %d, %s) = %v, want %v", s.why, s.fence, s.token, got, s.want)
		}
		after := readRow(t, db, "a")
		if s.want {
			if after.balance != s.balance || after.fence.Int64 != s.fence || after.token.String != s.token || after.owner.String != s.token {
				t.Fatalf("%s: row after accepted write = %+v", s.why, after)
			}
		} else if after != before {
			t.Fatalf("%s: refused write changed the row: %+v -> %+v", s.why, before, after)
		}
	}
}

func TestStrictWithoutTokenColumn(t *testing.T) {
	// Without a token column a fence writes a row once: an equal fence is
	// refused even from the same grant.
	db := openDB(t)
	ctx := testCtx(t)
	mustInsert(t, db, "s")
	for _, s := range []struct {
		fence int64
		want  bool
	}{{4, true}, {4, false}, {3, false}, {5, true}} {
		ok, err := strict.Update(ctx, db, "s", fence.Of(s.fence, ""), fence.Set("balance", s.fence))
		if err != nil || ok != s.want {
			t.Fatalf("strict Update(fence %d) = %v, %v; want %v", s.fence, ok, err, s.want)
		}
	}
	ok, err := strict.Upsert(ctx, db, "s", fence.Of(5, ""), fence.Set("balance", 0))
	if err != nil || ok {
		t.Fatalf("strict Upsert with an equal fence = %v, %v; want refused", ok, err)
	}
	if r := readRow(t, db, "s"); r.balance != 5 || r.fence.Int64 != 5 || r.token.Valid {
		t.Fatalf("row = %+v, want balance 5 fence 5 and no token", r)
	}
}

func TestUpdateMissingRow(t *testing.T) {
	db := openDB(t)
	if update(t, db, "absent", 1, "x", 1) {
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
	ok, err := accounts.Update(testCtx(t), db, "a", fence.Of(9, "g9"))
	if err != nil || !ok {
		t.Fatalf("fence-only Update: %v, %v", ok, err)
	}
	if update(t, db, "a", 8, "stale", 1) {
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
	if !update(t, tx, "a", 4, "tx", 100) {
		t.Fatal("Update in tx refused")
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
	if !update(t, tx, "a", 4, "tx", 100) {
		t.Fatal("Update in tx refused")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if update(t, conn, "a", 3, "conn-stale", 1) {
		t.Fatal("stale Update through *sql.Conn accepted")
	}
	if !update(t, conn, "a", 6, "conn", 200) {
		t.Fatal("newer Update through *sql.Conn rejected")
	}
	if r := readRow(t, db, "a"); r.fence.Int64 != 6 || r.balance != 200 {
		t.Fatalf("row = %+v, want fence 6 balance 200", r)
	}
}

func TestUpsert(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	upsert := func(f int64, token string, set ...fence.Column) bool {
		t.Helper()
		ok, err := accounts.Upsert(ctx, db, "u", fence.Of(f, token), set...)
		if err != nil {
			t.Fatalf("Upsert(fence %d): %v", f, err)
		}
		return ok
	}
	if !upsert(3, "g3", fence.Set("balance", 30), fence.Set("owner", "three")) {
		t.Fatal("Upsert of an absent row refused")
	}
	if r := readRow(t, db, "u"); r.fence.Int64 != 3 || r.balance != 30 || r.owner.String != "three" || r.token.String != "g3" {
		t.Fatalf("inserted row = %+v", r)
	}
	if upsert(2, "g2", fence.Set("balance", 20)) {
		t.Fatal("Upsert with a lower fence accepted")
	}
	if !upsert(3, "g3", fence.Set("balance", 31)) {
		t.Fatal("Upsert by the same grant refused")
	}
	if upsert(3, "other", fence.Set("balance", 32)) {
		t.Fatal("Upsert with an equal fence from another grant accepted")
	}
	// Columns left out keep their values on update.
	if !upsert(5, "g5", fence.Set("balance", 50)) {
		t.Fatal("Upsert with a higher fence refused")
	}
	if r := readRow(t, db, "u"); r.fence.Int64 != 5 || r.balance != 50 || r.owner.String != "three" {
		t.Fatalf("row after upserts = %+v, want fence 5 balance 50 owner three", r)
	}
	// Insert with only the fence: other columns take their defaults.
	ok, err := accounts.Upsert(ctx, db, "v", fence.Of(1, "g1"))
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
	ok, err := accounts.Upsert(testCtx(t), db, id, fence.Of(f, "x"), fence.Set("owner", "x"))
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
	ok, err := pg.Upsert(ctx, db, "d", fence.Of(2, "pg"), fence.Set("balance", 7), fence.Set("owner", "pg"))
	if err != nil || !ok {
		t.Fatalf("Upsert with $N: %v, %v", ok, err)
	}
	ok, err = pg.Update(ctx, db, "d", fence.Of(1, "old"), fence.Set("balance", 8))
	if err != nil || ok {
		t.Fatalf("stale Update with $N: %v, %v; want refused", ok, err)
	}
	ok, err = pg.Update(ctx, db, "d", fence.Of(2, "other"), fence.Set("balance", 8))
	if err != nil || ok {
		t.Fatalf("Update with $N, equal fence from another grant: %v, %v; want refused", ok, err)
	}
	ok, err = pg.Update(ctx, db, "d", fence.Of(2, "pg"), fence.Set("balance", 9))
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
	qualified := fence.Table{Name: "main.accounts", IDColumn: "id", FenceColumn: "fence", TokenColumn: "token"}
	ok, err := qualified.Upsert(ctx, db, "q", fence.Of(1, "q"), fence.Set("balance", 1))
	if err != nil || !ok {
		t.Fatalf("Upsert on main.accounts: %v, %v", ok, err)
	}
	ok, err = qualified.Update(ctx, db, "q", fence.Of(2, "q"), fence.Set("balance", 2))
	if err != nil || !ok {
		t.Fatalf("Update on main.accounts: %v, %v", ok, err)
	}
}

// nilLease stands for a nil *safelock.Lease: a typed nil pointer whose
// methods would panic.
type nilLease struct{ fence int64 }

func (l *nilLease) Fence() int64  { return l.fence }
func (l *nilLease) Token() string { return "" }

func TestBadInputRejected(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	mustInsert(t, db, "a")
	g := fence.Of(1, "g")
	tbl := func(name, id, f, tok string) fence.Table {
		return fence.Table{Name: name, IDColumn: id, FenceColumn: f, TokenColumn: tok}
	}
	bad := []struct {
		name  string
		table fence.Table
		g     fence.Grant
		set   []fence.Column
		db    fence.Execer
	}{
		{"injection in table", tbl("accounts; DROP TABLE history; --", "id", "fence", ""), g, nil, db},
		{"space in table", tbl("acc ounts", "id", "fence", ""), g, nil, db},
		{"empty table", tbl("", "id", "fence", ""), g, nil, db},
		{"two dots", tbl("a.b.c", "id", "fence", ""), g, nil, db},
		{"empty schema", tbl(".accounts", "id", "fence", ""), g, nil, db},
		{"quoted table", tbl(`"accounts"`, "id", "fence", ""), g, nil, db},
		{"backtick", tbl("`accounts`", "id", "fence", ""), g, nil, db},
		{"leading digit", tbl("1accounts", "id", "fence", ""), g, nil, db},
		{"non-ASCII", tbl("comptés", "id", "fence", ""), g, nil, db},
		{"too long", tbl(strings.Repeat("a", 64), "id", "fence", ""), g, nil, db},
		{"dot in id column", tbl("accounts", "accounts.id", "fence", ""), g, nil, db},
		{"comment in fence column", tbl("accounts", "id", "fence--", ""), g, nil, db},
		{"quote in token column", tbl("accounts", "id", "fence", "token'"), g, nil, db},
		{"fence column is id column", tbl("accounts", "id", "ID", ""), g, nil, db},
		{"token column is fence column", tbl("accounts", "id", "fence", "Fence"), g, nil, db},
		{"injection in set column", accounts, g, []fence.Column{fence.Set("balance = 0 WHERE 1=1; --", 1)}, db},
		{"empty set column", accounts, g, []fence.Column{fence.Set("", 1)}, db},
		{"set writes fence", accounts, g, []fence.Column{fence.Set("Fence", 1)}, db},
		{"set writes id", accounts, g, []fence.Column{fence.Set("id", "b")}, db},
		{"set writes token", accounts, g, []fence.Column{fence.Set("token", "forged")}, db},
		{"column twice", accounts, g, []fence.Column{fence.Set("balance", 1), fence.Set("BALANCE", 2)}, db},
		{"zero fence", accounts, fence.Of(0, "g"), nil, db},
		{"negative fence", accounts, fence.Of(-5, "g"), nil, db},
		{"empty token with a token column", accounts, fence.Of(1, ""), nil, db},
		{"nil grant", accounts, nil, nil, db},
		{"typed nil grant", accounts, (*nilLease)(nil), nil, db},
		{"nil db", accounts, g, nil, nil},
		{"typed nil *sql.DB", accounts, g, nil, (*sql.DB)(nil)},
		{"typed nil *sql.Tx", accounts, g, nil, (*sql.Tx)(nil)},
	}
	for _, b := range bad {
		for op, call := range map[string]func() (bool, error){
			"Update": func() (bool, error) { return b.table.Update(ctx, b.db, "a", b.g, b.set...) },
			"Upsert": func() (bool, error) { return b.table.Upsert(ctx, b.db, "a", b.g, b.set...) },
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
		t.Fatalf("row changed by refused calls: %+v", r)
	}
	for _, tb := range []fence.Table{accounts, strict} {
		if err := tb.Validate(); err != nil {
			t.Fatalf("Validate(%+v): %v", tb, err)
		}
	}
}

func TestDatabaseErrorsSurface(t *testing.T) {
	db := openDB(t)
	missing := fence.Table{Name: "no_such_table", IDColumn: "id", FenceColumn: "fence"}
	ok, err := missing.Update(testCtx(t), db, "a", fence.Of(1, "g"))
	if ok || err == nil || errors.Is(err, fence.ErrInvalid) {
		t.Fatalf("Update on a missing table: %v, %v; want the database's error", ok, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ok, err = accounts.Update(ctx, db, "a", fence.Of(1, "g"))
	if ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("Update with a cancelled ctx: %v, %v; want context.Canceled", ok, err)
	}
}

// TestConcurrentWriters races writers with random fences on one row, each
// write its own grant (so equal fences come from different grants, as after
// a counter loss). Each write runs in a transaction that also appends the
// grant to a history when the fenced update was accepted, so the history is
// in commit order. A correct check gives a non-decreasing history in which
// no fence appears twice, ending at the highest fence anyone tried.
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
				ok, err := fencedTx(ctx, db, fence.Of(f, fmt.Sprint(w, "-", i)), int64(w*1000+i))
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
		if history[i] <= history[i-1] {
			t.Fatalf("write with fence %d accepted after fence %d from another grant (history %v)", history[i], history[i-1], history)
		}
	}
	if r := readRow(t, db, "hot"); r.fence.Int64 != maxTried || history[len(history)-1] != maxTried {
		t.Fatalf("final fence %d, last accepted %d, highest tried %d", r.fence.Int64, history[len(history)-1], maxTried)
	}
	t.Logf("%d of %d writes accepted", accepted, writers*writes)
}

func fencedTx(ctx context.Context, db *sql.DB, g fence.Grant, balance int64) (bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback() }()
	ok, err := accounts.Update(ctx, tx, "hot", g, fence.Set("balance", balance))
	if err != nil || !ok {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO history (fence, token) VALUES (?, ?)`, g.Fence(), g.Token()); err != nil {
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
			if _, err := accounts.Upsert(ctx, db, "new", fence.Of(f, fmt.Sprint("g", f)), fence.Set("balance", f*10)); err != nil {
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
		if _, err := accounts.Update(ctx, db, "a", fence.Of(int64(i+1), "bench"), fence.Set("balance", i)); err != nil {
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

// TestDuplicateFenceRace: grants that share a fence race to create and
// write one row; exactly one wins, and only it may write again.
func TestDuplicateFenceRace(t *testing.T) {
	db := openDB(t)
	ctx := testCtx(t)
	const writers = 12
	var wg sync.WaitGroup
	wins := make(chan string, writers)
	for w := range writers {
		wg.Go(func() {
			tok := fmt.Sprint("grant-", w)
			ok, err := accounts.Upsert(ctx, db, "dup", fence.Of(7, tok), fence.Set("owner", tok))
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins <- tok
			}
		})
	}
	wg.Wait()
	close(wins)
	var won []string
	for tok := range wins {
		won = append(won, tok)
	}
	if len(won) != 1 {
		t.Fatalf("%d grants with fence 7 wrote (%v), want exactly 1", len(won), won)
	}
	if r := readRow(t, db, "dup"); r.owner.String != won[0] || r.token.String != won[0] {
		t.Fatalf("row %+v, written by %q", r, won[0])
	}
	if !update(t, db, "dup", 7, won[0], 1) {
		t.Fatal("the winning grant could not write again")
	}
}
