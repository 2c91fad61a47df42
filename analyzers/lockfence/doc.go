// Package lockfence defines an Analyzer that reports writes made under a
// Redis lock that no fencing token guards.
//
// # Analyzer lockfence
//
// lockfence: report writes under a Redis lock that no fencing token guards
//
// A Redis lock expires. A holder that stalls past its TTL — a GC pause, a
// slow disk, a network partition, a VM migration — does not know it lost
// the lock and goes on writing. Only a fencing token, a number that grows
// with every grant and is checked where the write lands, turns that late
// write away. The analyzer looks at the critical section of each lock —
// the code between a successful acquire and its release on the
// control-flow graph, or to the end of the function when the release is
// deferred — and reports:
//
//   - a write to another store with no fencing token reaching it: a
//     database/sql, sqlx or pgx INSERT/UPDATE/DELETE/REPLACE/MERGE/TRUNCATE (the
//     statement text must be a constant locklint can read), also through
//     a project's own interface that stands for them (a Querier or sqlc's
//     DBTX: methods that return sql.Result, sql.Rows, sql.Row,
//     pgconn.CommandTag, pgx.Rows or pgx.Row; a Query or QueryRow counts
//     when its text writes, as sqlc's UPDATE ... RETURNING does), a gorm
//     Create/Save/Update/Updates/UpdateColumn(s)/Delete, the Save/Exec of
//     an ent Create/Update/Delete builder, a MongoDB collection write
//     (mongo-driver InsertOne/InsertMany, Update*, ReplaceOne, Delete*,
//     FindOneAnd*, BulkWrite; mgo Insert, Update*, Upsert*, Remove*,
//     Query.Apply, Bulk.Run: a fence that reaches its filter or update
//     fences it), a GoFrame gdb Model Insert/InsertIgnore/InsertAndGetId,
//     Save, Replace, Update, Delete, Increment or Decrement (an update
//     is fenced by a Where("fence < ?", f) or WhereLT("fence", f) in its
//     chain, as gorm's is), an xorm Engine or Session Insert, InsertOne,
//     Update or Delete (Where/And/Or in its chain read as gorm's) or an
//     Exec whose statement writes, a schema migration that takes no
//     lock of its own (ent's generated Schema.Create; gormigrate's
//     Migrate, MigrateTo, RollbackLast, RollbackTo, RollbackMigration:
//     the Redis lock is all that keeps two instances from altering the
//     same tables at once), a go-redis,
//     redigo or rueidis write to a key other than the lock, a Lua script
//     that writes (but not a write after the script compared a value it
//     read with the caller's: a compare-and-set, or a write checked
//     against the lock's token, guards itself), os.WriteFile, os.Create, os.Rename, os.Remove(All), os.Truncate,
//     (*os.File).Write/WriteString/WriteAt on a file the function opened or
//     was passed (a handle kept in a struct field or a package variable,
//     such as a logger's log file or os.Stdout, is a stream the process
//     appends to, not what the lock protects; a file from os.CreateTemp
//     has a name no other holder has, and what the lock protects is
//     where it is renamed to).
//     Writes made inside helpers the section calls count too, when the
//     helper is a concrete function or method (in this package or
//     another), or a method of an interface whose only implementation is
//     declared beside it (type Orders interface{...}; type OrderDB
//     struct{...}), or of an interface declared in another package (a
//     domain package's WalletRepository) that exactly one type of the
//     calling package implements, unless the interface's own package
//     already knows its implementation; failing those, of an interface
//     that exactly one type of the project implements among the packages
//     the calling package imports, directly or not (a job's narrow
//     stockStore interface, implemented by the store package it imports;
//     types in _test.go files and mock, fake or stub types and packages
//     left out; an interface of one method must also name a type of the
//     implementation's package, Allocate(...) (*store.Stock, error), so
//     that a type that merely has a method of that shape does not stand
//     for it). Two types count as one implementation when every method
//     of the interface is the same function on both: go-zero's generated
//     models, where customWalletModel embeds *defaultWalletModel and the
//     hand-written methods are defaultWalletModel's too, so a
//     svcCtx.WalletModel.Update(...) is defaultWalletModel's UPDATE. An
//     SETNX that a downloaded library's cache layer makes (go-zero's
//     cache node storing a not-found placeholder, in a function named as
//     a cache operation and not as a lock) is a cache write, not a lock
//     such a model takes. The same holds for locks taken and released through such
//     an interface (a domain's Broker whose only implementation takes a
//     SET NX lock). File writes inside modules downloaded from a proxy
//     are left out (a logger's klog.Warningf reaches (*os.File).Write;
//     that is not what the lock protects). A call of a store or Redis
//     client API listed here counts as what this list says of it, not as
//     what its implementation reaches: a GoFrame Model.Scan reads, though
//     it fills the query cache in Redis on the way. Left out too: an UPDATE whose WHERE
//     requires a column it sets to be empty or to hold an expected value
//     (SET device_id = ? WHERE ... AND device_id IS NULL; SET status =
//     'done' WHERE status = 'pending'; gorm's Where("no = ? AND status =
//     ?", no, "pending").Update("status", "cancelled"), and Updates of a
//     map), and an INSERT that does nothing when its row's key exists
//     (INSERT ... ON CONFLICT DO NOTHING, INSERT IGNORE, INSERT OR IGNORE:
//     a claim of a unique key, a job's run per tick): the row refuses a
//     stale holder's write by itself. When the
//     code then tests the rows it affected and leaves on none (if
//     res.RowsAffected == 0 { return }), the writes after that test run
//     only for the caller that moved the row on (also when a
//     transaction's callback records the count in a variable, inserted =
//     n > 0, that the function around it tests), and are left out too
//     (the stock put back after an order is cancelled), also when the
//     update, its test and the writes after it are in a helper the
//     section calls, and when a repository's helper makes the test and
//     answers "no row changed" with an error (if n == 0 { return
//     ErrConflict }) that the section tests and leaves on (if err :=
//     repo.UpdateBalance(...); err != nil { return err }): a ledger
//     entry written after it runs only for that caller. So is a write
//     whose results are thrown away, in a function literal handed to a
//     transaction wrapper (Transaction, TransactCtx, Trans, WithTx), when
//     the next statement returns an error that cannot be nil (made there,
//     a sentinel, or err after if err != nil): the transaction rolls back
//     and the write never lands (a failure row logged on the path that
//     then fails); not a write whose own error is returned. So is a SQL
//     or gorm write in a transaction that has already locked rows through
//     the same handle (SELECT ... FOR UPDATE or FOR SHARE, LOCK IN SHARE
//     MODE, gorm's clause.Locking, jinzhu/gorm's gorm:query_option; not
//     that option on gorm v2, which ignores it), directly or in a helper
//     given the transaction (loadOrderTx(tx, id, true), or go-zero's
//     Session that TransactCtx hands its callback,
//     FindOneForUpdate(ctx, session, uid); a lock that hangs
//     on a bool parameter counts only with a constant true), when the
//     code tests what the locked read returned, or what it computed from
//     it (bal := coinOf(wallet); if bal < n) (an if or switch on it,
//     also on the fields of a struct it scanned into) before the write,
//     or when the locked read selects only rows in the state the UPDATE
//     moves them out of (SELECT ... FROM outbox WHERE status = 0 ... FOR
//     UPDATE SKIP LOCKED, then UPDATE outbox SET status = 1): the database makes a stale holder's transaction
//     wait for the newer one's and re-read what it wrote, so the decision
//     is made where the write lands, which is what a fence is for. A row
//     lock taken through the pool, after the write, or only to write (a
//     balance locked after the checks that decide the grant were made on
//     unlocked reads) guards nothing. A write in a helper is reported at the call under the
//     lock (s.repo.MarkDone(ctx, id)), with the write's own position in
//     the message: the call is where the section hands its work on, and
//     a helper may also be called where no lock is held. An unexported
//     helper of this package called only there is the section's own
//     code moved out, and is reported at its write, the call as related
//     information (a helper of the package that others call too stays
//     reported at the call, with where it writes as related
//     information); so are such helpers it calls in turn (a leader's tick
//     calls processDueJobs, which calls runJob, each once: the report is
//     at runJob's UPDATE); when such a helper writes through another
//     package (a repository method, also inside the callback it passes
//     to a transaction wrapper), the report is at that call. The section's own writes are reported before a
//     helper's, and a write to a store of record (a database, a file)
//     before a Redis write: an id taken from a Redis pool or counter
//     and then inserted is reported at the insert, where the fence would
//     be checked. One report per section; the other writes are related
//     information. A fence passed to the parameter that reaches the
//     write fences it. SQL wrappers that
//     take the statement as a parameter (exec(ctx, q, args...)) are read
//     at the call that passes the text. The callback passed to safelock's
//     Locker.Do, or to a project's own wrapper that runs a func parameter
//     while it holds a lock (WithLock(ctx, key, fn), in any package), is
//     a critical section too.
//     Locks are raw SET NX locks that are also released somewhere (or
//     named as locks), safelock, redsync, bsm/redislock, rueidislock
//     (and valkey-go's valkeylock, rueidislock's fork), the old
//     bsm/redis-lock (its Run callback is a section), amyangfei/redlock-go
//     (a lock given back by UnLock of the same resource),
//     jefferyjob/go-redislock, xiaoxuxiansheng/redis_lock, gocron v2's
//     distributed locker (a job's task is a section when its scheduler
//     was made WithDistributedLocker, or the job WithDistributedJobLocker,
//     and not WithDisabledDistributedJobLocker: gocron takes the lock,
//     keyed by the job's name, before each run) and go-zero
//     RedisLock locks, a lock API behind an interface shaped like
//     rueidislock's (Lock(ctx, key) (context.Context, context.CancelFunc,
//     error): a lock that hands back its lease as a context, whatever
//     main wires in behind it), and a
//     project's own lock type over one of these libraries
//     (a TryLock that keeps the library lock in its receiver and an
//     Unlock that releases it, or a FetchLock that returns the lock it
//     obtained, or a helper that locks a redsync Mutex it made and
//     returns it), in any package, also when the package reaches the
//     library only through another package's variables. Only
//     safelock issues a fence; with the others the message says to move
//     to safelock. With safelock, the write never receives Lease.Fence().
//   - a fence that reaches an overwriting SQL statement (UPDATE, DELETE,
//     REPLACE, MERGE, an upsert) or a gorm Save/Update/Delete whose
//     statement or Where chain compares no fence-like column (fence,
//     epoch, generation, version, token, term) with < or <= against a
//     placeholder bound to the fence. Passing the fence as a value is not
//     a check. A plain INSERT that records the fence overwrites nothing
//     and is fine.
//   - a fence taken by a separate INCR after the acquire (a counter whose
//     key is named like a fence, or whose value reaches a fence condition
//     or a safelock/fence helper): two round trips, and a counter on one
//     Redis can go backwards after a failover.
//
// A write counts as fenced when any value derived from the fence (through
// local variables, conversions, appends, struct literals and fields,
// string builders) reaches it, and so does a safelock Lease or a
// fence.Grant handed to it. Not reported: locks whose key names one
// period (time.Now().Format("2006-01-02-15:04") in it) with a TTL
// unknown or at least that period: a cron tick's run marker, which
// nobody takes again once it lapsed; a throttle, a key nothing releases
// whose refusal answers that the caller comes too often (return
// ErrTooFrequent, a "rate limited" error): it lets the work run at most
// once per TTL and shuts nothing out; sections that only read,
// writes before the acquire, after the release, on the branch where the
// acquire failed, or in deferred calls; writes a failed acquire also
// reaches (after if ok {...} else {...}; but not when only a Redis error
// goes on, if err != nil { log } else if !ok { return }: that fail-open is
// lockresult's finding, and the lock still guards the writes), up to the point where the same
// acquire is tried again and its outcome assigned anew (directly, or in a
// function literal handed to a wait helper); in a loop around the
// acquire, writes of the next iteration (one lock per item: the item
// before's lock does not cover the next item's), while a failed attempt
// that continues the loop does not make the section's writes both-path
// (a leader loop whose failed tick waits for the next); writes the section starts but
// does not wait for (in a goroutine it does not join through a
// WaitGroup, an errgroup or a channel, or in a function handed to a
// worker pool's Submit or time.AfterFunc, or in a helper that does one
// of these): they may land after the release, in no order the lock
// keeps, so a fence on them would not be this lock's; writes through safelock/fence
// helpers; SQL whose text cannot be read; writes behind other interface
// methods (several implementations, or one in a package the caller does
// not import: go/analysis facts flow along imports only) and func values; Redis writes inside other packages' helpers
// (mostly caches), except a SET without expiry (a store of record:
// store.Put(ctx, "wallet:"+id, v) whose body sends SET key v 0; also
// through a lock library's own client, redis_lock.Client.Set), a SET
// with a TTL by a helper that makes the key itself and whose type or
// package is named as a storage, store or repository, and not as a
// cache, statistics, a limit, a session, presence, dedup or a short-lived
// credential (a one-time code, a verification answer, a token)
// (games.Save(ctx, state, 2*time.Hour) keying by the state's room: a
// store's state is its state, though it expires), and a
// record kept in a Redis structure (HSET, LPUSH, LREM, SADD, ZADD, XADD,
// ... in a helper that sets no expiry on any key, where neither the key
// nor the helper, its receiver or its package is named as a cache,
// statistics, a counter, a limit, a session, presence, dedup or a lock:
// queue.Complete(ctx, id) moving a job between lists and writing its
// hash; counters such as HINCRBY and pops are not records), and
// inside this package's helpers named as caches or as lock operations (a
// Redis write in another helper of this package is a write, and so is a
// cache helper's under a lock whose key family — the constant text the
// key is built from — also guards a write to a store of record in some
// section: the lock orders the fill against the update, and a stale
// fill that lands after the update's invalidation stays);
// a SET/SETEX with a TTL of a key named as a cache, in its text, in the
// variable that holds it (cacheKey := "ocr:" + hash) or in its TTL's name
// (s.ocrCacheTTL) (the mutex around a cache rebuild guards the database,
// and the cached copy expires), also when the SET has no TTL and the
// same function then gives the key one (SET cacheKey v; EXPIRE cacheKey
// 300);
// a SET/SETEX with a TTL of a constant to a key named as a record of work
// done (processed:<id>, event:done:<id>): a deduplication mark, which a
// stale holder's late write sets to the value it already has;
// a Redis write whose key is made from a library lock's own token
// (redsync Mutex.Value, redislock Lock.Token, safelock Lease.Token), in
// the section or in the helper it is passed to: each holder writes under
// keys of its own (state:<token>), and readers that look them up by the
// current holder's token never see a stale holder's late write;
// _test.go files. A helper that takes the lock and gives it back before
// it returns (a deferred release in its body, or any release on its way
// when it is not named as an acquire) is a critical section of its own:
// its caller does not hold the lock after the call. A call that hands
// the lock's key to a func value or an unresolved interface method, or
// the library lock to a helper, may release it, so the section ends
// there. A library lock kept in a slice (held = append(held, mu), one
// lock per item taken in order) is the slice's: a range over it that
// releases its elements ends the section where the range starts
// (deferred, at the function's end), and a call that receives the slice
// may release them. A SETNX that is never released
// and not named as a lock is a deduplication marker and has no section;
// nor has an NX key that is data rather than a lock (see lockrelease), nor a lock
// with no TTL, which cannot pass to another holder while this one is
// paused (its missing TTL is lockexpiry's finding).
//
// A write through a radix action is reported at the call the action is
// handed to (the client's Do, a pipeline, a helper that runs the actions
// it gets), where the command is sent.
//
// # Why it matters
//
//	t0   worker A: acquires lock:order:42 (TTL 10s)
//	t1   worker A: reads the order, then stops: a 15s GC pause
//	t10  the lock expires; worker B acquires lock:order:42
//	t11  worker B: UPDATE orders SET state='shipped' WHERE id=42
//	t16  worker A wakes, still believing it holds the lock:
//	     UPDATE orders SET state='paid' WHERE id=42   -> accepted
//
// B's write is lost and the order is back in a state it already left. A
// TTL, an owner-checked release and a watchdog all fail here, because A
// does not run at all while its lease expires. With a fence, A holds 7
// and B holds 8; B's UPDATE stores fence 8, and A's "... AND fence < 7"
// matches no row.
//
// A fence from a separate INCR after SET NX has two flaws: a crash
// between the two leaves a lock without a token, and on failover a
// replica that missed the last INCRs hands out a number already used.
// safelock issues the fence in the acquire script, from a counter that
// shares the lock's hash slot.
//
// # Bad
//
//	mu := rs.NewMutex("order:42")
//	if err := mu.Lock(); err != nil {
//		return err
//	}
//	defer mu.Unlock()
//	_, err := db.ExecContext(ctx, "UPDATE orders SET state = ? WHERE id = ?", state, id)
//
//	lease, err := locker.TryAcquire(ctx, "order:42", 10*time.Second)
//	...
//	db.ExecContext(ctx, "UPDATE orders SET state = ?, fence = ? WHERE id = ?", state, lease.Fence(), id)
//
//	rdb.SetNX(ctx, key, token, ttl)
//	fence, _ := rdb.Incr(ctx, key+":fence").Result()
//
// # Good
//
//	lease, err := locker.TryAcquire(ctx, "order:42", 10*time.Second)
//	if err != nil {
//		return err
//	}
//	defer lease.Release(ctx)
//	_, err = db.ExecContext(ctx,
//		"UPDATE orders SET state = ?, fence = ? WHERE id = ? AND fence < ?",
//		state, lease.Fence(), id, lease.Fence())
//
// or the safelock/fence helpers, which do the conditional update (SQL) or
// keep the highest fence seen per resource (Redis) for you.
//
// # Fix
//
// No suggested fix: the fence has to be checked by the resource, which
// usually needs a column and a schema change, so no rewrite of the call
// alone is safe. Acquire with safelock.Locker.TryAcquire (or Do), pass
// Lease.Fence() to every write the lock protects, and make the write
// conditional on it.
package lockfence
