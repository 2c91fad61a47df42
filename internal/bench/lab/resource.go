package lab

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/locklint/locklint/safelock/fence"
	_ "modernc.org/sqlite" // the resource: a SQLite file shared by the holder processes
)

// The resource is a counter row in a SQLite file that every holder process
// opens: holders read it inside their critical section and write read+1,
// each write with its outcome in the writes table, in one transaction, so
// the table's autoincrement is the resource's own order of writes. With
// the fence on, the update goes through safelock/fence, the helper a user
// would call, and is refused when a newer grant has written.
var counter = fence.Table{Name: "counter", IDColumn: "id", FenceColumn: "fence", TokenColumn: "token"}

const schema = `CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL, fence INTEGER NOT NULL DEFAULT 0, token TEXT NOT NULL DEFAULT '');
INSERT OR IGNORE INTO counter (id, value) VALUES (1, 0);
CREATE TABLE IF NOT EXISTS writes (seq INTEGER PRIMARY KEY AUTOINCREMENT, holder INTEGER, grant_id INTEGER, read INTEGER, wrote INTEGER, accepted INTEGER, at_ns INTEGER, claim INTEGER NOT NULL DEFAULT 0);`

func openResource(path string) (*sql.DB, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(60000)&_pragma=journal_mode(WAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	if _, err := db.Exec(schema); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("resource %s: %w", path, err)
	}
	return db, nil
}

// claim records a grant's fence on the row before the holder reads it, as
// safelock/fence's documentation asks of a read-modify-write: a late write
// of an older grant is refused from then on, so it cannot land between
// this holder's read and its write.
func claim(ctx context.Context, db *sql.DB, holder int, grantID, fenceValue int64, start time.Time) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	accepted, err := counter.Update(ctx, tx, 1, fence.Of(fenceValue, fmt.Sprint(grantID)))
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO writes (holder, grant_id, read, wrote, accepted, at_ns, claim) VALUES (?, ?, 0, 0, ?, ?, 1)",
		holder, grantID, accepted, time.Since(start).Nanoseconds()); err != nil {
		return err
	}
	return tx.Commit()
}

func readValue(ctx context.Context, db *sql.DB) (int64, error) {
	var v int64
	err := db.QueryRowContext(ctx, "SELECT value FROM counter WHERE id = 1").Scan(&v)
	return v, err
}

// write stores read+1 for a grant and records the attempt. fenced sends it
// through the fence check with the grant's fence and a token unique to
// the grant.
func write(ctx context.Context, db *sql.DB, holder int, grantID, fenceValue int64, fenced bool, read int64, start time.Time) (bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback() }()
	accepted := true
	if fenced {
		accepted, err = counter.Update(ctx, tx, 1, fence.Of(fenceValue, fmt.Sprint(grantID)), fence.Set("value", read+1))
	} else {
		_, err = tx.ExecContext(ctx, "UPDATE counter SET value = ? WHERE id = 1", read+1)
	}
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO writes (holder, grant_id, read, wrote, accepted, at_ns) VALUES (?, ?, ?, ?, ?, ?)",
		holder, grantID, read, read+1, accepted, time.Since(start).Nanoseconds()); err != nil {
		return false, err
	}
	return accepted, tx.Commit()
}

// Resources.
const (
	resourceSQL   = "sql"
	resourceRedis = "redis"
)

// sqlStore is the sql resource as a holder uses it.
type sqlStore struct {
	db     *sql.DB
	holder int
	start  time.Time
}

func (s *sqlStore) claim(ctx context.Context, gid, f int64) (bool, int64, error) {
	return true, 0, claim(ctx, s.db, s.holder, gid, f, s.start)
}

func (s *sqlStore) read(ctx context.Context) (int64, error) { return readValue(ctx, s.db) }

func (s *sqlStore) write(ctx context.Context, gid, f int64, fenced bool, read int64) (bool, int64, error) {
	ok, err := write(ctx, s.db, s.holder, gid, f, fenced, read, s.start)
	return ok, 0, err
}

func (s *sqlStore) close() error { return s.db.Close() }

// recorded reads the writes and the final value back.
func recorded(ctx context.Context, db *sql.DB) ([]Write, map[int]int64, int64, error) {
	rows, err := db.QueryContext(ctx, "SELECT seq, holder, grant_id, read, wrote, accepted, at_ns, claim FROM writes ORDER BY seq")
	if err != nil {
		return nil, nil, 0, err
	}
	defer rows.Close()
	var ws []Write
	gids := map[int]int64{}
	for rows.Next() {
		var w Write
		var gid int64
		var at int64
		if err := rows.Scan(&w.Seq, &w.Holder, &gid, &w.Read, &w.Wrote, &w.Accepted, &at, &w.Claim); err != nil {
			return nil, nil, 0, err
		}
		w.At = time.Duration(at)
		gids[len(ws)] = gid
		ws = append(ws, w)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, 0, err
	}
	v, err := readValue(ctx, db)
	if errors.Is(err, sql.ErrNoRows) {
		err = errors.New("the counter row is gone")
	}
	return ws, gids, v, err
}
