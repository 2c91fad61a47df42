// Package lockrenew defines an Analyzer that reports Redis lock renewals
// that do not check who holds the lock.
//
// # Analyzer lockrenew
//
// lockrenew: report lock renewals without an atomic ownership check
//
// A holder that extends its lock must check, in the same atomic step, that
// the key still holds its own token. The analyzer reports a key acquired
// with NX that is later extended by
//
//   - EXPIRE, PEXPIRE, EXPIREAT or PEXPIREAT (go-redis Expire/PExpire,
//     redigo Do("EXPIRE", ...), rueidis B().Pexpire(), Do(ctx, "expire", ...)),
//   - SET ... XX with a TTL, or a SET that writes the holder's token again
//     with a TTL,
//   - a Lua script that sets the key's TTL without comparing its value, or
//   - GET, compare in Go, then EXPIRE: two round trips with a race between.
//
// The acquire and the renewal may be in different functions, methods,
// files or packages (a watchdog goroutine, a Refresh method next to Lock,
// a helper package), behind the project's own interfaces. Each renewal is
// reported once, at the EXPIRE (or script call) itself when it is in the
// package being analysed, as in a watchdog helper; at the call only when
// the command lives in another package.
//
// Not reported: a compare-and-expire script (safelock.RenewScript, bsm
// redislock's Refresh script); SET key token XX IFEQ token; an EXPIRE
// queued in MULTI/EXEC inside a WATCH whose GET compared the value; EXPIRE
// of keys never acquired with NX (sessions, rate limiters, caches, a
// counter a script seeds when missing and then INCRs), or whose NX result
// nobody reads (a cache filled with SETNX); the
// EXPIRE that gives a TTL-less SETNX its first TTL (lockexpiry reports
// that); an EXPIRE in the function that acquires, outside a loop or
// goroutine, which sets up the lock rather than holding it, unless a GET
// of the lock comes between them: acquire-or-renew, as a leader election
// runs it each tick (NX failed, GET says the key is ours, EXPIRE), renews;
// so does a GET first whose EXPIRE runs on a path that skips the acquire
// (the key is there and holds our value: extend it; else SET NX), and an
// EXPIRE with no GET on such a path (if !leader { SET NX } else {
// PEXPIRE }: it extends what an earlier round took).
//
// Also reported: an EXPIRE of a lock in the function that takes it that
// runs whatever the acquire answered, because nothing tests the NX reply
// (or the INCR count) before it or around it: SETNX, EXPIRE, return the
// reply; SETNX and EXPIRE queued in one MULTI; a retry loop that sends
// both on every attempt. When the NX fails, that EXPIRE re-arms the
// current holder's lock, and a holder that died keeps its lock for as
// long as others keep trying. Not when the reply is tested first (a
// refusal returns, the EXPIRE sits in the success branch), when the
// function reads the key's TTL (the repair of a key left without one),
// or for EXPIRE ... NX. A test of an error counts only where a refusal
// comes as one (SET NX through SetArgs or Do); a reply written through a
// pointer (radix.Cmd(&n, "SETNX", ...)) is the acquire's reply.
//
// # Why it matters
//
//	t0   A: SET lock:job tokA NX PX 10000   -> OK, A holds the lock
//	t1   A: pauses 12 s (GC, swapped out, a slow call, a network partition)
//	t10  lock:job expires
//	t11  B: SET lock:job tokB NX PX 10000   -> OK, B holds the lock
//	t13  A: wakes, its watchdog sends PEXPIRE lock:job 10000 -> 1
//	t13  A believes the renewal proves it still holds the lock and writes;
//	     B writes too; B's lock now lives 10 s longer than B asked for.
//
// The renewal succeeded, so A never learns it lost the lock. With an owner
// check the PEXPIRE would have returned 0 and A would have stopped.
//
// # Bad
//
//	func (l *Lock) Refresh(ctx context.Context) error {
//		return l.rdb.Expire(ctx, l.key, l.ttl).Err()
//	}
//
//	if rdb.Get(ctx, key).Val() == token { // another holder can take over here
//		rdb.PExpire(ctx, key, ttl)
//	}
//
//	conn.Do("PEXPIRE", key, 30000)
//
// # Good
//
//	func (l *Lock) Refresh(ctx context.Context) error {
//		ok, err := safelock.RenewKey(ctx, l.rdb, l.key, l.token, l.ttl)
//		if err == nil && !ok {
//			return errLockLost
//		}
//		return err
//	}
//
//	redis.NewScript(1, safelock.RenewScript).Do(conn, key, token, 30000)
//
//	lease, err := safelock.New(rdb).Acquire(ctx, key, ttl) // then lease.Renew, or WithAutoRenew
//
// # Fix
//
// When the holder's token is in scope at the renewal (a variable of the
// acquiring function, tok in tok, ok := obtain(...) for a helper that
// returns the token it stored, or a field of the receiver that the
// acquire stored),
// the suggested fix rewrites go-redis v9 Expire/PExpire into
// safelock.RenewKey(ctx, rdb, key, token, ttl), keeping the result shape:
// Result() becomes the call itself, an assigned Err() becomes "_, err :=",
// a returned Err() becomes "_, err := ...; return err". A redigo
// Do("EXPIRE"/"PEXPIRE", key, n) becomes
// redis.NewScript(1, safelock.RenewScript).Do(conn, key, token, ms), with
// seconds turned into the milliseconds the script takes. The fix changes
// only who may renew: a renewal of a lock this holder lost now returns
// false (0) instead of extending someone else's lock, so check that result
// and stop working when it is false. Elsewhere (go-redis v6–v8, rueidis,
// Val(), pipelines, scripts) there is no fix: compare the token and extend
// in one script, as safelock.RenewScript does, or use safelock's Lease.
package lockrenew
