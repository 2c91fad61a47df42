package fence

import (
	"context"
	"database/sql"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	rdb = redis.NewClient(&redis.Options{})
	db  *sql.DB
)

func rawUpdate(ctx context.Context, id, token string) error {
	key := "lock:order:" + id
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = ?", id) // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token: if this holder stalls past the TTL.*safelock.Locker.TryAcquire and check Lease.Fence\(\)`
	return err
}

// The failure branch is not in the section; the write after the release
// is not either.
func failureBranchAndAfterRelease(ctx context.Context, id, token string) {
	key := "lock:order:" + id
	if !rdb.SetNX(ctx, key, token, 10*time.Second).Val() {
		db.ExecContext(ctx, "INSERT INTO lock_misses (id) VALUES (?)", id)
		return
	}
	var state string
	db.QueryRowContext(ctx, "SELECT state FROM orders WHERE id = ?", id).Scan(&state)
	rdb.Del(ctx, key)
	db.ExecContext(ctx, "UPDATE orders SET seen = 1 WHERE id = ?", id)
}

// Writes before the acquire are not in the section.
func before(ctx context.Context, id, token string) {
	db.ExecContext(ctx, "DELETE FROM queue WHERE id = ?", id)
	if ok, _ := rdb.SetNX(ctx, "lock:q", token, time.Minute).Result(); !ok {
		return
	}
	rdb.Del(ctx, "lock:q")
}

// A SETNX that is never released is a deduplication marker, not a lock.
func dedup(ctx context.Context, id string) {
	if !rdb.SetNX(ctx, "seen:"+id, 1, 24*time.Hour).Val() {
		return
	}
	db.ExecContext(ctx, "INSERT INTO events (id) VALUES (?)", id)
}

// A lock named as one is a lock even when no release of its key is in
// sight (here the release deletes another key by mistake): it expires,
// so the late write needs a fence all the same.
func lockNeverReleased(ctx context.Context, id, token string) error {
	if ok, _ := rdb.SetNX(ctx, "lock:stock:"+id, token, 10*time.Second).Result(); !ok {
		return nil
	}
	defer rdb.Del(ctx, "stock:"+id)
	_, err := db.ExecContext(ctx, "UPDATE stock SET n = n - 1 WHERE id = ?", id) // want `database/sql DB.ExecContext under lock "lock:stock:" \+ id \(SET NX\) carries no fencing token`
	return err
}

// Near miss: a marker named as data, never deleted, is no lock.
func markOnce(ctx context.Context, id string) error {
	if ok, _ := rdb.SetNX(ctx, "processed:"+id, 1, time.Hour).Result(); !ok {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE stock SET n = n - 1 WHERE id = ?", id)
	return err
}

// Redis writes to other keys and file writes are writes too; one
// diagnostic per section, the other writes as related information.
func otherKeyAndFile(ctx context.Context, id, token string) {
	for !rdb.SetNX(ctx, "lock:report", token, 30*time.Second).Val() {
		time.Sleep(100 * time.Millisecond)
	}
	defer rdb.Del(ctx, "lock:report")
	rdb.Set(ctx, "report:"+id, "done", 0)
	os.WriteFile("/tmp/report-"+id, nil, 0o644) // want `os.WriteFile under lock "lock:report" \(SET NX\) carries no fencing token`
}

// A fence made by a separate INCR after the acquire.
func incrFence(ctx context.Context, id, token string) error {
	key := "lock:job:" + id
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	fence, err := rdb.Incr(ctx, key+":fence").Result() // want `fencing token taken by a separate INCR after acquiring lock key \(SET NX\): the token is not issued atomically.*safelock.Locker.TryAcquire, whose Lease.Fence\(\)`
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET fence = ? WHERE id = ? AND fence < ?", fence, id, fence)
	return err
}

// An INCR that allocates an id is a write, not a fence; the insert it
// feeds is where a fence would be checked.
func incrID(ctx context.Context, token string) {
	if ok, _ := rdb.SetNX(ctx, "lock:ids", token, 10*time.Second).Result(); !ok {
		return
	}
	defer rdb.Del(ctx, "lock:ids")
	id := rdb.Incr(ctx, "ids:order").Val()
	db.Exec("INSERT INTO orders (id) VALUES (?)", id) // want `database/sql DB.Exec under lock "lock:ids" \(SET NX\) carries no fencing token`
}

// An INCR alone is the protected write.
func incrOnly(ctx context.Context, token string) {
	if ok, _ := rdb.SetNX(ctx, "lock:seq", token, 10*time.Second).Result(); !ok {
		return
	}
	defer rdb.Del(ctx, "lock:seq")
	rdb.Incr(ctx, "seq:order") // want `Redis INCR under lock "lock:seq" \(SET NX\) carries no fencing token`
}

// Renewing the lock itself is not a protected write.
func renewSelf(ctx context.Context, token string) {
	if ok, _ := rdb.SetNX(ctx, "lock:self", token, 10*time.Second).Result(); !ok {
		return
	}
	rdb.SetXX(ctx, "lock:self", token, 10*time.Second)
	rdb.Del(ctx, "lock:self")
}

// A func value gets the lock key: it may release the lock, so the
// section ends there.
func opaqueRelease(ctx context.Context, token string, release func(context.Context, string)) {
	if !rdb.SetNX(ctx, "lock:opaque", token, time.Minute).Val() {
		return
	}
	release(ctx, "lock:opaque")
	db.ExecContext(ctx, "UPDATE t SET a = 1")
}

func releaseOpaque(ctx context.Context) { rdb.Del(ctx, "lock:opaque") }

// A lock with no TTL never passes to another holder while this one is
// paused, so nothing writes late (its missing TTL is lockexpiry's finding).
func noTTL(ctx context.Context, id string) {
	if !rdb.SetNX(ctx, "lock:forever", "t", 0).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:forever")
	rdb.Set(ctx, "report:"+id, "done", 0)
}

// A helper that takes the lock with SETNX and then gives it a TTL with a
// separate EXPIRE: the lock expires, so its writes need a fence.
func takeLock(ctx context.Context, name, tok string) bool {
	name = "lock:" + name
	if !rdb.SetNX(ctx, name, tok, 0).Val() {
		return false
	}
	rdb.Expire(ctx, name, 10*time.Second)
	return true
}

func releaseLock(ctx context.Context, name string) { rdb.Del(ctx, "lock:"+name) }

func createUser(ctx context.Context, id, tok string) {
	if !takeLock(ctx, "user:"+id, tok) {
		return
	}
	defer releaseLock(ctx, "user:"+id)
	rdb.Set(ctx, "users:"+id, 1, 0) // want `Redis SET under lock "lock:user:" \+ \* \(SET NX \(in fence.takeLock at goredis.go:\d+\)\) carries no fencing token`
}

// A Redis write in a helper of this package is a write under the
// caller's lock. markPending is unexported and called only here: its code
// is the section's own, so the report is at its ZADD.
func fetchPending(ctx context.Context, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:fetch", token, 5*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:fetch")
	ids, err := rdb.Get(ctx, "tickets").Result()
	if err != nil {
		return err
	}
	fillTicketCache(ctx, []string{ids})
	return markPending(ctx, []string{ids})
}

func markPending(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if err := rdb.ZAdd(ctx, "pending", redis.Z{Score: 1, Member: id}).Err(); err != nil { // want `Redis ZADD under lock "lock:fetch" \(SET NX\) carries no fencing token`
			return err
		}
	}
	return nil
}

// Near miss: a helper named as a cache fills a copy, not the data.
func fillTicketCache(ctx context.Context, ids []string) {
	for _, id := range ids {
		rdb.HSet(ctx, "tickets:view", id, 1)
	}
}

// Near miss: the fence handed to the helper reaches its write.
func fetchPendingFenced(ctx context.Context) error {
	lease, err := locker.TryAcquire(ctx, "fetch", 5*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	return markPendingFenced(ctx, lease.Fence())
}

func markPendingFenced(ctx context.Context, fence int64) error {
	return rdb.Eval(ctx, "if tonumber(redis.call('GET', KEYS[2]) or 0) < tonumber(ARGV[1]) then redis.call('ZADD', KEYS[1], 1, 'x') end", []string{"pending", "pending:fence"}, fence).Err()
}

// A helper called from two places is reported at each call under a lock.
func archiveA(ctx context.Context, token string) error {
	if ok, _ := rdb.SetNX(ctx, "lock:archive", token, 5*time.Second).Result(); !ok {
		return nil
	}
	defer rdb.Del(ctx, "lock:archive")
	return archiveTickets(ctx) // want `archiveTickets \(Redis ZADD at goredis.go:\d+\) under lock "lock:archive" \(SET NX\) carries no fencing token`
}

func archiveB(ctx context.Context, token string) error {
	if ok, _ := rdb.SetNX(ctx, "lock:archive:b", token, 5*time.Second).Result(); !ok {
		return nil
	}
	defer rdb.Del(ctx, "lock:archive:b")
	return archiveTickets(ctx) // want `archiveTickets \(Redis ZADD at goredis.go:\d+\) under lock "lock:archive:b" \(SET NX\) carries no fencing token`
}

func archiveTickets(ctx context.Context) error {
	return rdb.ZAdd(ctx, "archived", redis.Z{Score: 1, Member: "all"}).Err()
}

type stockDAO struct{}

// An unexported method used once is the section's code too.
func (d *stockDAO) reload(ctx context.Context, id, token string) error {
	if ok, _ := rdb.SetNX(ctx, "lock:stock:init:"+id, token, 5*time.Second).Result(); !ok {
		return nil
	}
	defer rdb.Del(ctx, "lock:stock:init:"+id)
	return d.seedStock(ctx, id)
}

func (d *stockDAO) seedStock(ctx context.Context, id string) error {
	return rdb.Set(ctx, "stock:"+id, 100, 0).Err() // want `Redis SET under lock "lock:stock:init:" \+ id \(SET NX\) carries no fencing token`
}

// Near miss: a constructor whose summary says it acquires (a lock with no
// release in sight) is no acquire to its caller.
func openStore(ctx context.Context) *redis.Client {
	rdb.SetNX(ctx, "lock:store:init", "1", time.Minute)
	return rdb
}

func startService(ctx context.Context, path string) error {
	c := openStore(ctx)
	_ = c
	return os.WriteFile(path, []byte("started"), 0o600)
}

// TRUNCATE empties the tables a stale holder's purge shares with the next.
func purgeTables(ctx context.Context, tables string) error {
	if ok, err := rdb.SetNX(ctx, "lock:purge", "1", 30*time.Minute).Result(); err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:purge")
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE truncated_at IS NULL").Scan(&n); err != nil { // a read
		return err
	}
	_, err := db.ExecContext(ctx, "TRUNCATE TABLE "+tables+" RESTART IDENTITY") // want `database/sql DB.ExecContext under lock "lock:purge" \(SET NX\) carries no fencing token`
	return err
}

// The helper's own helper, also unexported and called only there, is the
// section's code too: the report is at its write.
func tickLeader(ctx context.Context, id string) {
	if !becomeLeader(ctx, id) {
		return
	}
	if err := processDue(ctx); err != nil {
		return
	}
}

func becomeLeader(ctx context.Context, id string) bool {
	return rdb.SetNX(ctx, "lock:leader", id, 30*time.Second).Val()
}

func resignLeader(ctx context.Context) { rdb.Del(ctx, "lock:leader") }

func processDue(ctx context.Context) error {
	for _, job := range []string{"a", "b"} {
		if err := fireJob(ctx, job); err != nil {
			return err
		}
	}
	return nil
}

func fireJob(ctx context.Context, job string) error {
	_, err := db.ExecContext(ctx, "UPDATE jobs SET last_run = NOW() WHERE name = ?", job) // want `database/sql DB.ExecContext under lock "lock:leader"`
	return err
}

// Near miss for the position: a nested helper that is called from two
// places is shared code, so the report stays at the call under the lock.
func tickSweeper(ctx context.Context, id string) {
	if !rdb.SetNX(ctx, "lock:sweeper", id, 30*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:sweeper")
	_ = sweepAll(ctx) // want `sweepAll \(database/sql DB.ExecContext at goredis.go:\d+\) under lock "lock:sweeper"`
}

func sweepAll(ctx context.Context) error { return sweepOne(ctx, "all") }

func sweepOne(ctx context.Context, what string) error {
	_, err := db.ExecContext(ctx, "DELETE FROM tmp WHERE kind = ?", what)
	return err
}

func sweepManually(ctx context.Context) error { return sweepOne(ctx, "manual") }

// A new account takes a short id from a Redis pool and is inserted with
// it: reported at the insert, where the fence would be checked.
func createAccount(ctx context.Context, device, token string) error {
	key := "lock:login:" + device
	ok, err := rdb.SetNX(ctx, key, token, 8*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	id, err := rdb.SPop(ctx, "shortid:pool").Result()
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO accounts (device, short_id) VALUES (?, ?)", device, id) // want `database/sql DB.ExecContext under lock key \(SET NX\) carries no fencing token`
	return err
}
