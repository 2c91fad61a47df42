// Package lockresult defines an Analyzer that reports lock acquires whose
// outcome is ignored.
//
// # Analyzer lockresult
//
// lockresult: report lock acquires whose result is ignored
//
// An acquire can fail: another owner holds the lock, or Redis is down.
// The analyzer reports
//
//   - an acquire whose result is thrown away: rdb.SetNX(...) as a
//     statement, _ = ..., _, _ = ....Result(), conn.Do("SET", k, v, "NX",
//     ...) as a statement, a rueidis Do(SET NX) whose result is dropped;
//   - an acquire where only the error is checked although a held lock is
//     reported without one: go-redis SetNX returns false and a nil error,
//     redigo's Do returns a nil reply (SET NX) or 0 (SETNX) and a nil error;
//     also through the command kept in a variable (cmd.Err(), _, err :=
//     cmd.Result()), and a bool or reply that is only logged; a radix
//     action whose receiver is nil or a variable nothing reads
//     (radix.Cmd(nil, "SET", k, v, "NX", "EX", "10")): radix's Do returns
//     only the error and writes the reply into the receiver; a radix.v2
//     Cmd whose *Resp is looked at only through its Err field (a held
//     lock is a nil reply with a nil Err; Str() fails on it). Not when
//     the function then reads the key back with GET and compares what it
//     read with the value it stored (val == nodeID, a value that is not
//     a constant): a refused acquire reads another holder's value;
//   - a failure branch that falls through into the critical section:
//     if !ok { log.Print("busy") } followed by the work, found on the
//     control-flow graph (if, else, switch on ok or err, errors.Is, nil
//     checks on the reply or lock); a path that comes back to the acquire
//     (a retry loop's continue) tries again and runs nothing yet; an
//     error that falls through to the test of ok a refusal takes too,
//     whose success branch returns or gives the lock back inside (if ok
//     { go func() { defer del(); work() }() }; a release it defers to
//     the function's end does not count), runs after it only what every
//     non-holder runs. A guard that stops every error but the refusal
//     (if err != nil && err != redislock.ErrNotObtained { return err },
//     or && !errors.Is(err, ...), or redis.Nil after SetArgs NX) lets a
//     lock held elsewhere into the code after it, unless a later test
//     stops it or the code reads the key back and compares it with the
//     value it stored (a leader renewing what it already holds). A call named as an acquire (Lock, TryLock, Obtain, ...)
//     that no fact describes (an interface's Lock(ctx) error implemented
//     in a package that imports this one) is an acquire that refuses by
//     error when the if statement that tests its error compares it with
//     a lock library's refusal sentinel (a package error variable named
//     ErrNotObtained, ErrNotAcquired, ErrNotLocked, ErrAlreadyLocked,
//     ErrLockTaken, ErrLockHeld), and is judged the same way. So is a
//     call of an interface method that no fact describes (a domain port
//     implemented by a package that imports this one, even in a package
//     with no Redis of its own) named as taking a lock (AcquireTaskLock,
//     TryLock; or Acquire on a receiver named for locks,
//     m.locker.Acquire) whose last results are a bool and an error: it
//     is read as SetNX is, false with a nil error for a lock held
//     elsewhere (a pool's AcquireSlot is no lock). When the error and the refusal both fall through
//     (if err != nil { log } else if !ok { log }), the acquire's outcome
//     is acted on nowhere: one report, at the acquire, names both tests;
//   - an error branch that counts the failure as a grant: if err != nil {
//     ok = true } (a lock "only as insurance: if Redis is down, do not
//     block the business") followed by a test of ok that lets the caller
//     in; while Redis is down every caller holds the "lock" at once.
//     Reported at the acquire. Not when the branch returns (the error
//     goes up), nor when it sets a flag of its own;
//   - an error branch that runs the work itself: if err != nil {
//     log.Print(err); next.ServeHTTP(w, r); return } where the code after
//     the if runs the same work once the lock is held. The work is what
//     the caller handed in: a call of a func-typed parameter (a callback,
//     echo's or go-zero's next, a gRPC handler) or the middleware chain's
//     continuation (gin's and fiber's Context.Next, net/http's
//     ServeHTTP) on the same variable; a response both paths write, a
//     fallback handed in for the failure, or a local helper both call is
//     not the work;
//   - lock libraries: the error of safelock Locker.TryAcquire/Acquire,
//     redsync Mutex.Lock/LockContext/TryLock, bsm/redislock Obtain and
//     rueidislock WithContext discarded (a lease or lock kept with the error
//     dropped is accepted when it is checked for nil), a failure branch
//     that falls through, or an error tested only against one sentinel
//     (if err == redislock.ErrNotObtained { return err }): every other
//     error, Redis unreachable included, runs the work without the lock;
//     go-zero's RedisLock.Acquire/AcquireCtx answers a held lock with
//     false and a nil error, so its bool must be looked at as SetNX's is,
//     and so do the old bsm/redis-lock's Locker.Lock/LockWithContext;
//     redlock-go's RedLock.Lock, jefferyjob/go-redislock's Lock (and its
//     Spin, Fair, R and W forms) and xiaoxuxiansheng/redis_lock's Lock
//     fail with an error (v6 bsm/redis-lock's ObtainLock, which answers
//     (nil, nil), is not judged);
//   - wrappers: a function that returns an acquire's outcome unchanged
//     (return l.rdb.SetNX(...).Result(), return l.locker.TryAcquire(...))
//     gets a fact, and its callers, in any package, are checked as if they
//     called the acquire; so does one that returns the bool through
//     variables (res, err := ...Result() ... return res, nil), also
//     when the command is kept first (cmd := rdb.SetNX(...); res, err :=
//     cmd.Result(): a command variable used once is read where it is
//     used); and so does one that maps a lock library's outcome onto a
//     bool and an error (lock, err := Obtain(...); if err == nil {
//     return lock, true, nil } ... return nil, false, nil for
//     ErrNotObtained, return nil, false, err otherwise), whose caller
//     logs the error and goes on. A wrapper
//     that returns only SetNX's Err() loses the bool and is reported
//     itself. A method of an interface that one type of its package
//     implements (a cache with Lock and Unlock) carries its
//     implementation's fact, so calls through the interface count too.
//     A wrapper whose NX nothing in its package names a lock (a
//     store's SetNX(key, value, ttl) serving every key) is judged at each
//     call instead, by the caller's key and function: SetNX("job-lock:"+id,
//     ...) counts, a mapping seeded in a transaction does not, nor does a
//     record that the same function later overwrites with another value
//     (an idempotency record's "pending" replaced by the response: a
//     lock's holder never replaces its token), nor a key named as a
//     record or as pending work (lifecycle's RecordNamed: a retry's
//     pending marker, scheduled anyway when Redis fails). A wrapper
//     that returns the token it stored, (string, error), and answers a
//     lock it did not get with "" and a nil error (a Grab that gives up
//     after its retry period) gets a fact too: a caller that checks the
//     error and never looks at the token (if lock == "") is reported.
//
// It also reports acquire wrappers that fail open: a function with a bool
// result whose acquire's error branch reaches "return true" (on a Redis
// error it answers "acquired"), so its callers run the critical section
// without the lock — however deliberate, the message says so. The
// acquire may be a raw NX (GoFrame gredis's SetNX and Do(SET ... NX)
// too: of its acquires, only this check judges the outcome so far), a
// library call, a wrapper with a fact, or a
// method of an interface implemented in another package that is named
// as taking a lock and returns (bool, error) (AcquireOrderLock, TryLock).
// A wrapper without a bool result whose error says whether the lock is
// held (the refusal, if !ok, returns an error; or a blocking Lock waits it
// out and tries again, its loop left only by if ok { break }) fails open the same way
// when the NX's error branch returns a nil error beside a usable handle
// (return func() {}, nil: "degrade, the database still protects us").
// An acquire function whose only result is an error fails open the same
// way through such a wrapper of its package (TryLock(ctx) error, whose
// refusal is an error of its own): a failure of the call that reaches a
// nil return (a retry loop's if err := l.TryLock(ctx); err != nil {
// return nil }) answers "held" when the lock was not taken. Reported once
// per return, judged by the last call of the acquire before it (a retry
// that calls again answers with its own outcome); a function not named
// as an acquire (a job that skips its run when the lock is busy) is left
// alone.
// A branch that tests the error for the client's nil reply
// (errors.Is(err, redis.Nil) after SetArgs with NX or Do of SET NX) is
// the refusal, not a Redis error, and is not followed (a leader's
// acquire that goes on to an owner-checked renew when the key is taken).
// An INCR lock (the first to count to 1 holds it) is read the way its
// wrapper answers: one that returns n > 1 answers "held by someone
// else", so for it the failure branch fails open when it returns false
// without an error (IsLocked on a Redis error answering "free"). When
// the INCR's error is discarded (n, _ := store.Incr(ctx, key), or
// go-redis .Val()), the count reads 0 on a Redis error (-1 from many
// clients), and an answer that takes 0 for "free" (return n > 1, n >= 2,
// or "taken" as n <= 1, n < 2) fails open; n != 1 and n == 1 fail
// closed and are left alone.
//
// An acquire function (named Lock, Acquire, Obtain, TryLock, ...) whose
// failure branch only logs and falls through to the success answer is
// reported at the branch: if errors.Is(err, redislock.ErrNotObtained) {
// log.Print("busy") } followed by l.mx = lock; return nil, or if !ok {
// log } followed by return true, nil. The function tells its callers it
// holds the lock when it does not. Not when the answer is the outcome
// itself (return ok, nil), when the function releases the lock itself or
// keeps a bool status (itself or through a setter of the package), or
// when a bool is set on the way.
//
// An acquire function with no results at all (Acquire(ctx, key),
// LockKey(key) keeping the lock for a later Release) is reported at its
// acquire when a failure branch only logs and returns: it cannot tell its
// callers, who go on as if they held the lock. Not when it gives the lock
// back itself (a job running its own section: a Release, Unlock or DEL,
// or the cancel func its library acquire returned, rueidislock's defer
// cancel()), keeps its outcome in a
// status field (an election tick setting isLeader: a bool, or an atomic
// Bool, Int32 or Uint32 flag, atomic.StoreInt32(&e.isLeader, 1), Store
// or Swap; itself or through a setter of the package it calls,
// e.setLeader(false)), or when the branch sets
// something, sends, closes, calls a func value or ends the program.
//
// An acquire function (a bool result, named as taking a lock) whose lock
// is a plain SET, SETEX or PSETEX with no NX is reported at the SET: the
// command succeeds whether or not someone holds the key, so every caller
// is told it holds the lock and the holder's value is overwritten. The
// key must be given back with an owner check somewhere in the package (a
// compare-and-delete), which is what makes it a lock and not a flag such
// as an account lockout that anyone sets and clears.
//
// A call statement that drops the bool outcome of a helper of this
// package that takes a lock (the lifecycle summary says it acquires: a
// Lua hash lock, an NX behind several helpers) is reported too: a
// sync.Locker adapter Lock() { l.lockWithLease() } returns as if locked.
// Not when the function asks the same object about its state in a
// condition (if !e.IsLeader() { e.TryAcquire(ctx) }, a method answering
// one bool named Is..., Has..., Held, Locked or Leader): the object keeps
// the outcome, and the caller reads it there. Nor when the helper keeps
// its outcome in a bool field (isLeader.Store(true)) and the function
// that drops it only keeps the lock up: an elector's Start that starts
// its ticker loop, the loop itself. Such a function calls the helper, its
// own object's methods that do the same, and time, context, sync or a
// logger, nothing else; the work is done elsewhere by whoever asks the
// object. This holds for a dropped wrapper that returns the bool as it
// came, too.
//
// A call that passes a constant bool steering a helper of this package
// away from its acquire (lock(name, ttl, true), where true takes the
// branch that renews) is not an acquire, for this check and for
// wrappers' facts.
//
// An inverted acquire is reported: if lock(key) { return } followed by the
// work and a release of the same lock — the holder leaves at once and
// whoever did not get the lock runs the work and deletes the holder's
// lock.
//
// A lock script whose success reply is the status of a SET (return
// redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])) read with go-redis
// Cmd.Bool() or Int() is misread: "OK" parses as neither, so a
// successful acquire comes back as an error.
//
// A lock script that answers 0 when it takes the lock and another number
// when the key is held (local v = GET k; if v == '1' then return 1 end;
// SETEX k 60 '1'; return 0) and whose error is dropped (go-redis Val(),
// or n, _ := ...Int()) fails open: on a Redis error the reply reads as
// nil or 0, the script's "acquired". A script that answers 1 for
// "acquired" fails closed when its error is dropped and is left alone, as
// is a reply read with a single-value type assertion (v.(int64) panics
// on the nil reply).
//
// An acquire's raw reply kept as an interface{} (go-redis Cmd.Result()
// or Val() of a script or Do, redigo's Do) and tested for a refusal with
// an int constant (if f == 0 { return false }) is misread: Redis integers
// arrive as int64, and an int64 in an interface never equals an int, so
// the test is never true and a reentrant lock script's "held by another"
// reply reads as a grant. The same holds for a test for a grant with !=
// whose branch leaves as a success (if res != 0 { break } out of a retry
// loop, or return true): it is always true. A dead test for success, or
// an always-true test whose branch leaves as a failure, only fails closed
// and is left alone.
//
// The takeover of an expired timestamp lock with GETSET (or SET ... GET)
// whose reply — the previous value — is compared with the value just
// written is a misread too: it reads a win as a failure and a same-value
// write by another contender as a win.
//
// A DEL of the lock reached where the acquire failed is lockrelease's
// report (an unchecked DEL): its compare-and-delete fix makes a release on
// failure harmless, so it is not reported twice.
//
// A raw NX acquire counts as a lock when its key or its function is named
// like one (lock, mutex; Lock, TryLock, acquire, obtain), when the key is
// released with an owner check, when a Lock/Unlock API takes the key as a
// parameter, or when the same function deletes the key after taking it.
//
// Not reported: go-redis Do and SetArgs with NX, redigo's redis.String
// around SET NX and rueidis SET NX whose error is checked (a held lock
// comes back as redis.Nil, ErrNil or rueidis.Nil); ok, _ := SetNX(...)
// followed by a check of ok (an error also gives false); results returned
// to the caller (see wrappers) or stored in fields; SET NX used as a
// set-once value (a cache fill, a feature flag, a one-time code read back
// with GETDEL); a failure branch that sets a flag or an error before
// falling through, or ends in return, continue, break, panic, os.Exit,
// log.Fatal or a logger's Fatal or Panic (zap, logrus, the project's own:
// a method so named that returns nothing), or a project's helper that
// exits or panics, in any package (fail(msg) around log.Fatal, or
// HandleError(err) that panics when err is not nil, called where err is
// known not to be nil); an EXPIRE on the failure path
// (repairing a lock left without a TTL is deliberate).
//
// # Why it matters
//
//	t0  worker A: SET lock:job A NX PX 30000   -> OK, A holds the lock
//	t1  worker B: SET lock:job B NX PX 30000   -> nil, nil error: B does not hold it
//	t1  worker B: err == nil, so it runs the job anyway
//	t2  A and B both write the same rows; B's DEL lock:job removes A's lock,
//	    so a third worker gets in too
//
// # Bad
//
//	rdb.SetNX(ctx, key, token, ttl)                       // result dropped
//
//	if err := rdb.SetNX(ctx, key, token, ttl).Err(); err != nil {
//		return err                                        // false is not an error
//	}
//
//	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
//	if err != nil || !ok {
//		log.Printf("lock busy: %v", err)                  // and then goes on
//	}
//	defer rdb.Del(ctx, key)
//	process()
//
//	_ = mutex.Lock()                                      // redsync
//
// # Good
//
//	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
//	if err != nil {
//		return err
//	}
//	if !ok {
//		return ErrBusy
//	}
//
//	lease, err := safelock.New(rdb).TryAcquire(ctx, key, ttl)
//	if errors.Is(err, safelock.ErrNotAcquired) {
//		return ErrBusy
//	}
//
// # Fix
//
// There is no suggested fix: what to do when the lock is busy (return an
// error, skip the work, retry) is the caller's decision. Check both the
// error and the value, stop on failure, or use safelock.Locker.TryAcquire,
// which returns ErrNotAcquired when another owner holds the lock (and
// Locker.Acquire to wait for it).
package lockresult
