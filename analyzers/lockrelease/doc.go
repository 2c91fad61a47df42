// Package lockrelease defines an Analyzer that reports Redis lock keys
// deleted without an atomic ownership check.
//
// # Analyzer lockrelease
//
// lockrelease: report lock releases that do not check the lock is still ours
//
// A lock must be released only by the holder that owns it, and the check
// and the delete must be one atomic step. The analyzer reports, for a key
// acquired with NX (SETNX, SET NX, SetNX, SetArgs{Mode: "NX"}, rueidis
// Nx(), a script that sets NX):
//
//   - DEL or UNLINK of that key, in the same function, a sibling
//     method of the same type, another file, or through helpers in another
//     package, including in defer statements and goroutines;
//   - a Lua script whose body deletes the key without comparing its value
//     with an argument (the token);
//   - GET, compare in Go, then DEL: two round trips with a gap between;
//   - a plain DEL (directly or through any helper, also one judged in its
//     own package) on the path where the acquire failed, in the branch of
//     if err != nil or if !ok, or after an if ok { ... } without an else
//     (it runs on both paths): the caller does not hold the lock there,
//     so the key, if there, may be another holder's. Reported at that
//     call; not in a function named as a forced release, nor for other
//     keys of the same lock that function deletes there (the keys taken
//     before a refused one, given back in a loop).
//   - an owner-checked release (a compare-and-delete script, a lock
//     library's Release or Unlock) whose owner is looked up by key in a
//     map the process keeps (a struct field or a package variable:
//     r.tokens[key], c.locks[name], a sync.Map) that its acquires fill by
//     the same key, directly or through a helper of the package: for a
//     script, the slot's index is the key it deletes; for a library
//     handle, the name the releasing function was given. Every
//     acquisition of the key in the process shares that one slot: when a
//     holder's lease runs out and another goroutine takes the key, the
//     newer token replaces the older, and the older holder's release
//     checks, and deletes, the newer holder's lock. Keep the token with
//     the acquisition instead (return it, or a lease value). A map local
//     to the call, or one indexed by something else than the key (a lease
//     id per acquisition), is not reported; nor is a release that first
//     compares what the slot holds with the caller's own (al != expected).
//
// A package whose every key goes through one helper (Store, Del and
// Expire all keyed serialKey(key)) has no lock in that helper's shape: its
// generic Del is judged at each call by the key the caller passes, while
// its own Lock(key)/Unlock(key) pair, named as a lock API, is judged where
// it is. A Remove(key) beside a LockCall(key, fn) that deletes the key it
// took is a cache operation, not that lock's release.
//
// Each defect is reported once, where the code is wrong: at the DEL (or
// script call) itself when it is in the package being analysed, even
// inside a release helper called from several places (the calls are
// related information); at the call only when the command lives in
// another package.
//
// Not reported: a compare-and-delete script (if GET == ARGV then DEL),
// DELEX key IFEQ token (Redis 8.4), a DEL queued in MULTI/EXEC inside a
// WATCH whose GET read the key (go-redis Watch + TxPipelined, redigo WATCH
// ... MULTI ... EXEC), GETDEL (consuming a one-time value), keys that are
// never acquired with NX (cache invalidation, sessions, counters), NX keys
// that are data rather than locks (idempotency and dedup records, markers
// of pending work, seeds, cache fills nobody checks, Pause/Resume flags,
// records whose value is an encoded object (json or msgpack Marshal):
// no lock word near them,
// and either a record's name or an outcome nobody reads; claims that the
// function taking them keeps when its work succeeds and deletes only on
// its failure branches, whatever their names, unless that function hands
// the value it stored to its caller, in a struct or as a result: a token
// kept to release the lock later is a lock's; a delete deferred in a
// branch that returns, if locked { defer releaseLock(ctx, key); return
// rebuild() }, runs once the work is done, so it is a release, not a
// failure's rollback), and _test.go
// files, which delete lock keys on purpose to set up cases.
//
// # Why it matters
//
//	t0   A: SET lock:job tokA NX PX 30000   -> OK, A holds the lock
//	t1   A: pauses (GC, slow query, network) for longer than 30 s
//	t30  lock:job expires
//	t31  B: SET lock:job tokB NX PX 30000   -> OK, B holds the lock
//	t32  A: resumes, finishes, DEL lock:job -> deletes B's lock
//	t33  C: SET lock:job tokC NX PX 30000   -> OK: B and C both "hold" it
//
// GET, compare, DEL has the same hole: the lock can expire and change
// hands between A's GET and A's DEL.
//
// # Bad
//
//	defer rdb.Del(ctx, key)
//
//	if rdb.Get(ctx, key).Val() == token {
//		rdb.Del(ctx, key)
//	}
//
//	conn.Do("DEL", key)
//
//	redis.NewScript(`return redis.call("del", KEYS[1])`)
//
// # Good
//
//	defer safelock.ReleaseKey(ctx, rdb, key, token)
//
//	redis.NewScript(1, safelock.ReleaseScript).Do(conn, key, token)
//
//	// or a script of your own:
//	// if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0
//
//	// or, on Redis 8.4+: DELEX key IFEQ token
//
// # Fix
//
// When the token stored by the acquire is in scope at the DEL (a variable
// of the same function, or a field of the receiver in a sibling method),
// the suggested fix rewrites a go-redis v9 rdb.Del(ctx, key) statement
// (or err := rdb.Del(ctx, key).Err()) into safelock.ReleaseKey(ctx, rdb,
// key, token), and a redigo conn.Do("DEL", key) into
// redis.NewScript(1, safelock.ReleaseScript).Do(conn, key, token), adding
// the import. Elsewhere release with safelock.ReleaseKey or
// safelock.ReleaseScript by hand, or hold the lock as a safelock.Lease and
// call its Release method.
package lockrelease
