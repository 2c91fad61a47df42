package fence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// ErrInvalid reports bad input: an identifier that is not a plain SQL
// name, a fence below 1, a missing token, an empty Redis key, a nil client.
var ErrInvalid = errors.New("fence: invalid argument")

// Grant is one lock grant as the resource sees it: its fence, and its token,
// which tells the holder of an equal fence apart from anyone else.
// *safelock.Lease satisfies it; Of makes one from values kept elsewhere.
type Grant interface {
	Fence() int64
	Token() string
}

// Of returns the Grant with the given fence and token.
func Of(fence int64, token string) Grant { return grant{fence, token} }

type grant struct {
	fence int64
	token string
}

func (g grant) Fence() int64  { return g.fence }
func (g grant) Token() string { return g.token }

// Execer runs one statement. *sql.DB, *sql.Tx and *sql.Conn satisfy it, so a
// fenced write can join the caller's transaction.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Table names a table whose rows carry a fence column: the fence of the last
// write accepted for that row. The names are checked on every call (see
// Validate) and written into the statement unquoted, so they must be plain
// SQL identifiers, not reserved words; values always travel as arguments.
type Table struct {
	// Name is the table, optionally schema-qualified ("accounts",
	// "bank.accounts").
	Name string
	// IDColumn identifies the row. Upsert needs it to be the primary key or
	// to carry a unique constraint.
	IDColumn string
	// FenceColumn is an integer column (BIGINT). NULL counts as lower than
	// any fence, so a column added to an existing table works at once.
	FenceColumn string
	// TokenColumn, when set, holds the token of the grant that wrote last
	// (a text column), and lets that grant write the row again with the
	// same fence. Without it a fence can write a row only once: an equal
	// fence is refused.
	TokenColumn string
	// Dollar writes placeholders as $1, $2, ... (PostgreSQL) instead of ?
	// (SQLite, MySQL).
	Dollar bool
}

// Column is one column to write and its new value.
type Column struct {
	Name  string
	Value any
}

// Set names a column to write with a fenced Update or Upsert.
func Set(name string, value any) Column { return Column{Name: name, Value: value} }

// Validate reports whether the table's names are plain identifiers
// ([A-Za-z_][A-Za-z0-9_]*, at most 63 bytes; the table may have one schema
// prefix) and distinct. Update and Upsert call it; call it at startup to
// fail early.
func (t Table) Validate() error {
	if err := checkIdent("table", t.Name, true); err != nil {
		return err
	}
	if err := checkIdent("id column", t.IDColumn, false); err != nil {
		return err
	}
	if err := checkIdent("fence column", t.FenceColumn, false); err != nil {
		return err
	}
	if strings.EqualFold(t.IDColumn, t.FenceColumn) {
		return fmt.Errorf("%w: id column and fence column are both %q", ErrInvalid, t.IDColumn)
	}
	if t.TokenColumn == "" {
		return nil
	}
	if err := checkIdent("token column", t.TokenColumn, false); err != nil {
		return err
	}
	if strings.EqualFold(t.TokenColumn, t.IDColumn) || strings.EqualFold(t.TokenColumn, t.FenceColumn) {
		return fmt.Errorf("%w: token column %q is also the id or fence column", ErrInvalid, t.TokenColumn)
	}
	return nil
}

// Update writes set on the row with the given id if the row's fence is lower
// than g's, or equal and written by g itself, and stores g's fence (and
// token) in the row, in one statement:
//
//	UPDATE accounts SET balance = ?, fence = ?, token = ?
//	WHERE id = ? AND (fence IS NULL OR fence < ? OR (fence = ? AND token = ?))
//
// (without a TokenColumn: WHERE id = ? AND (fence IS NULL OR fence < ?)).
// It reports whether the row was written. false means another grant with a
// higher or equal fence has written (stop: this lease is stale, or its
// fence was issued twice), or there is no such row (use Upsert to create
// rows).
//
// On MySQL, enable the driver's clientFoundRows option, or a write that
// changes no value reports 0 rows and reads as refused.
func (t Table) Update(ctx context.Context, db Execer, id any, g Grant, set ...Column) (bool, error) {
	f, tok, err := t.check(db, g, set)
	if err != nil {
		return false, err
	}
	var b stmt
	b.dollar = t.Dollar
	b.WriteString("UPDATE " + t.Name + " SET ")
	for _, c := range set {
		b.WriteString(c.Name + " = ")
		b.arg(c.Value)
		b.WriteString(", ")
	}
	b.WriteString(t.FenceColumn + " = ")
	b.arg(f)
	if t.TokenColumn != "" {
		b.WriteString(", " + t.TokenColumn + " = ")
		b.arg(tok)
	}
	b.WriteString(" WHERE " + t.IDColumn + " = ")
	b.arg(id)
	fc := t.FenceColumn
	b.WriteString(" AND (" + fc + " IS NULL OR " + fc + " < ")
	b.arg(f)
	if t.TokenColumn != "" {
		b.WriteString(" OR (" + fc + " = ")
		b.arg(f)
		b.WriteString(" AND " + t.TokenColumn + " = ")
		b.arg(tok)
		b.WriteString(")")
	}
	b.WriteString(")")
	return exec(ctx, db, b.String(), b.args)
}

// Upsert inserts the row when no row has this id, and otherwise writes it
// under the same rule as Update, in one statement:
//
//	INSERT INTO accounts AS cur (id, balance, fence, token) VALUES (?, ?, ?, ?)
//	ON CONFLICT (id) DO UPDATE SET balance = excluded.balance,
//	  fence = excluded.fence, token = excluded.token
//	WHERE cur.fence IS NULL OR cur.fence < excluded.fence
//	  OR (cur.fence = excluded.fence AND cur.token = excluded.token)
//
// It reports whether the row was inserted or written. The statement needs
// IDColumn to be the primary key or unique, and INSERT ... ON CONFLICT:
// SQLite 3.24 or later and PostgreSQL 9.5 or later have it, MySQL does not.
// Columns left out of set take their defaults on insert and keep their
// values on update.
func (t Table) Upsert(ctx context.Context, db Execer, id any, g Grant, set ...Column) (bool, error) {
	f, tok, err := t.check(db, g, set)
	if err != nil {
		return false, err
	}
	var b stmt
	b.dollar = t.Dollar
	cols := append([]Column(nil), set...)
	cols = append(cols, Column{t.FenceColumn, f})
	if t.TokenColumn != "" {
		cols = append(cols, Column{t.TokenColumn, tok})
	}
	b.WriteString("INSERT INTO " + t.Name + " AS cur (" + t.IDColumn)
	for _, c := range cols {
		b.WriteString(", " + c.Name)
	}
	b.WriteString(") VALUES (")
	b.arg(id)
	for _, c := range cols {
		b.WriteString(", ")
		b.arg(c.Value)
	}
	b.WriteString(") ON CONFLICT (" + t.IDColumn + ") DO UPDATE SET ")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " = excluded." + c.Name)
	}
	fc := t.FenceColumn
	b.WriteString(" WHERE cur." + fc + " IS NULL OR cur." + fc + " < excluded." + fc)
	if tc := t.TokenColumn; tc != "" {
		b.WriteString(" OR (cur." + fc + " = excluded." + fc + " AND cur." + tc + " = excluded." + tc + ")")
	}
	return exec(ctx, db, b.String(), b.args)
}

// check validates the call and returns g's fence and token.
func (t Table) check(db Execer, g Grant, set []Column) (int64, string, error) {
	if err := t.Validate(); err != nil {
		return 0, "", err
	}
	if isNilDB(db) {
		return 0, "", fmt.Errorf("%w: nil database", ErrInvalid)
	}
	f, tok, err := checkGrant(g, t.TokenColumn != "")
	if err != nil {
		return 0, "", err
	}
	seen := map[string]bool{strings.ToLower(t.IDColumn): true, strings.ToLower(t.FenceColumn): true}
	if t.TokenColumn != "" {
		seen[strings.ToLower(t.TokenColumn)] = true
	}
	for _, c := range set {
		if err := checkIdent("column", c.Name, false); err != nil {
			return 0, "", err
		}
		if seen[strings.ToLower(c.Name)] {
			return 0, "", fmt.Errorf("%w: column %q is written twice, or is the id, fence or token column", ErrInvalid, c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
	}
	return f, tok, nil
}

// isNilDB reports whether db is nil or a typed nil *sql.DB, *sql.Tx or
// *sql.Conn, whose methods would panic.
func isNilDB(db Execer) bool {
	switch v := db.(type) {
	case nil:
		return true
	case *sql.DB:
		return v == nil
	case *sql.Tx:
		return v == nil
	case *sql.Conn:
		return v == nil
	}
	return false
}

// checkGrant returns g's fence and token: the fence must be positive, the
// token present when needToken.
func checkGrant(g Grant, needToken bool) (int64, string, error) {
	if g == nil || isNilGrant(g) {
		return 0, "", fmt.Errorf("%w: nil grant", ErrInvalid)
	}
	f, tok := g.Fence(), g.Token()
	if f < 1 {
		// A zero fence is what a missing lease gives; accepting it would
		// let a write that holds no lock pass a fresh row.
		return 0, "", fmt.Errorf("%w: fence %d: fences start at 1", ErrInvalid, f)
	}
	if needToken && tok == "" {
		return 0, "", fmt.Errorf("%w: empty token", ErrInvalid)
	}
	return f, tok, nil
}

// isNilGrant reports whether g is a typed nil pointer, such as a nil
// *safelock.Lease, whose methods would panic.
func isNilGrant(g Grant) bool {
	v := reflect.ValueOf(g)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func exec(ctx context.Context, db Execer, query string, args []any) (bool, error) {
	res, err := db.ExecContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("fence: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("fence: rows affected: %w", err)
	}
	return n > 0, nil
}

// maxIdent is PostgreSQL's identifier limit (MySQL allows 64).
const maxIdent = 63

// checkIdent accepts [A-Za-z_][A-Za-z0-9_]*, and with qualified one
// "schema." prefix. Anything else could change the statement.
func checkIdent(what, s string, qualified bool) error {
	parts := []string{s}
	if qualified {
		parts = strings.SplitN(s, ".", 2)
	}
	for _, p := range parts {
		if !isIdent(p) {
			return fmt.Errorf("%w: %s %q is not a plain SQL identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d bytes)", ErrInvalid, what, s, maxIdent)
		}
	}
	return nil
}

func isIdent(s string) bool {
	if s == "" || len(s) > maxIdent {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// stmt builds a statement and its arguments side by side.
type stmt struct {
	strings.Builder
	dollar bool
	args   []any
}

func (b *stmt) arg(v any) {
	b.args = append(b.args, v)
	if b.dollar {
		b.WriteString("$" + strconv.Itoa(len(b.args)))
		return
	}
	b.WriteString("?")
}
