// Package locklease defines an Analyzer that reports critical sections
// that can outlive their Redis lock's lease, and lock-loss signals that
// are thrown away.
//
// # Analyzer locklease
//
// locklease: report critical sections that can outlive their lock's TTL
//
// A Redis lock is a lease: it lasts its TTL, not until the holder is done.
// The analyzer looks at the critical section of each lock (from a
// successful acquire to its release on the control-flow graph, or to the
// end of the function when the release is deferred) and reports:
//
//   - a wait in the section that is longer than the lock's TTL, when
//     nothing renews the lock: time.Sleep, time.After or time.NewTimer,
//     or <-ctx.Done() on a context the function gave a longer constant
//     timeout. Both durations must be constants locklint can evaluate
//     (directly, through variables assigned once, or through a struct
//     field set once in the package); otherwise it stays silent. A
//     deadline that only bounds a call (a context with a timeout handed
//     to a query or a Redis command, an http.Client's Timeout) is not a
//     wait: the call may answer at once, and how long it takes is not
//     known. A statement that blocks until a context ends (<-ctx.Done()
//     on its own: hold the lock until shutdown) waits with no bound,
//     unless the function gives that context a deadline; not a select
//     case, nor a goroutine's wait.
//     Renewal is safelock.WithAutoRenew or Locker.Do,
//     Lease.Renew, redsync Mutex.Extend, redislock Lock.Refresh, an
//     EXPIRE/PEXPIRE or renew script on a raw lock's key anywhere in the
//     package; rueidislock renews by itself. redsync's TTL comes from
//     WithExpiry on NewMutex (8s by default); go-zero's RedisLock holds
//     its key SetExpire(seconds) plus 500 ms (500 ms without SetExpire)
//     and has no renewal. The smaller libraries: the old bsm/redis-lock
//     holds Options.LockTimeout (5s by default), redlock-go the ttl
//     given to Lock, jefferyjob/go-redislock WithTimeout (5s by default;
//     WithAutoRenew renews), none of them renewing by themselves; the
//     xiaoxuxiansheng/redis_lock watchdog renews unless WithExpireSeconds
//     sets the TTL.
//   - a safelock lease that renews itself (WithAutoRenew, Do) in a section
//     with such a wait, that never watches Lease.Done() or Err() (or, in
//     Do, never uses the callback's ctx): a renewal can fail, and then the
//     section goes on without the lock.
//   - a rueidislock WithContext/TryWithContext/ForceWithContext (or a
//     method of an interface shaped like it, Lock(ctx, key)
//     (context.Context, context.CancelFunc, error), whose implementation
//     main wires in) whose
//     returned context — cancelled when the lock is lost — is assigned to
//     "_" while the section keeps using the parent context, or runs a
//     func its function was passed (a helper's LockOnce(ctx, key, fn):
//     fn() is never told), or while the cancel func is stored (in a
//     field, a map kept in one, or a sync.Map) or returned, also as a
//     named result that a bare return hands back
//     (a wrapper's Lock method: the work runs in its callers, which can
//     never learn of the loss).
//   - a keep-alive that drops a failed renewal: an EXPIRE, an owner-checked
//     extend script or a library Extend/Refresh of a lock, run in a loop
//     of a goroutine (or of a function started with go, named as a
//     watchdog, or called from such a loop, or of a function nothing in
//     its package calls whose loop waits on a ticker or timer each
//     round: another package starts it; or in an exported function named
//     as one round of a keep-alive, KeepAlive, Renew or Heartbeat, that
//     nothing in its package calls: another package runs it each
//     round), whose outcome is thrown away,
//     only logged (also through a structured logger's entry,
//     log.WithError(err).Errorf(...), or a field handed to the log call,
//     logger.Error("extend failed", zap.Error(err))), or tested by branches that only
//     log, return, break or go on (errors.Is and errors.As test the error; they tell nobody; a
//     rueidis client's Do(ctx, built) is the reply of the command built).
//     Renewals are raw EXPIRE/PEXPIRE and extend scripts of a
//     lock (also sent by a one-shot helper of another package that a
//     loop here calls, store.RenewLock(ctx, id, ttl): the helper's
//     package cannot see the loop; not an owner-checked renewal there,
//     whose reply is the helper's to read and is judged in its package),
//     library Extend/Refresh, and methods named like a renewal
//     (refresh, extend, renew, keepalive) of a type named as a lock, or
//     of any type of a package named so (lock.Manager, distlock.Client).
//     Reported where the lock-lost reply is dropped (the if chain testing
//     n == 0 or !ok), else at the renewal; once: a renewal inside a helper
//     that is reported there is not reported again at the helper's call. Not reported when a failure branch tells
//     someone: it sends on or closes a channel, calls a func value that
//     returns nothing or an error (a cancel; not nextWait() computing a
//     delay), sets a field (exported, or read by something other than
//     the Close/Unlock/Release/Stop that lets go of the lock) or a
//     package variable, uses sync/atomic, calls
//     a Cancel/Stop/Close/Notify-like method (not a time.Ticker's or
//     Timer's own Stop) or one named for handling the loss
//     (handleLeadershipLoss, onLockLost, stepDown, demote, resign; not
//     recordLoss or logLost, which only count it), panics or exits, or returns from a function that
//     defers a cancel (go func() { defer cancel(); ... if n == 0 {
//     return } }(): the return runs it; a deferred close(done), wg.Done(),
//     Go-mutex Unlock or Release tells the holder nothing, unless the
//     channel closed is one every caller returns to its own caller: the
//     lost channel tryAcquire hands the holder after go extend(m, lost,
//     stop)), or one the function starting the goroutine returns (exit
//     := make(chan struct{}); go func() { defer close(exit); ... }();
//     return exit), or returns,
//     leaving the loop, from a keep-alive helper of the package (it
//     returns nothing) whose every call is heard: go func() { defer
//     cancel(); keepUp(ctx, lock) }() cancels, or sends or closes, when
//     keepUp returns (an atomic "running" flag is bookkeeping, not the
//     holder hearing); nor when
//     the outcome is returned, sent or handed to another function (but
//     an EXPIRE whose reply goes to a blank, _, err := ..., keeps only its
//     error, and a key found gone reaches no one whatever the error
//     reaches; and a branch for the library's lost-lock error, if err ==
//     redislock.ErrNotObtained { break }, that tells nobody is a dropped
//     loss whatever another branch does with a Redis error, log.Fatal
//     included, unless the code after the loop it leaves tells); nor
//     when the step reads the lock with a GET before an EXPIRE (or after
//     it in the same step: renew, then check who holds the key) and, on a
//     test of that read (key gone, another token), tells the holder as a
//     failure branch would (cancels, closes a channel, clears
//     s.isLeader), the key found gone included (a GET whose error branch,
//     redis.Nil among its errors, returns still leader does not): its own
//     owner check finds a loss at the next tick (the
//     GET-then-EXPIRE itself is lockrenew's D4); nor for a call that
//     takes the lock as well as extends it (a TryLock that refreshes the
//     lock it holds or else obtains it): its answer is an acquire's,
//     "held now or not", and a loop that skips the work on false tells
//     the only holder there is.
//   - a renewal wrapper that answers success when the renewal failed: a
//     function named as a renewal (Refresh, Extend, Renew, KeepAlive,
//     Heartbeat) returning an error, whose renewal (the same renewals as
//     above, outside a keep-alive loop) has an error branch that reaches
//     "return nil" — every error but ErrLockNotHeld swallowed, or a log
//     and fall through. Reported at the renewal, the nil return as
//     related information; at the nil return when the failure branch
//     keeps the error (err = fmt.Errorf("refresh: %w", err)) that the
//     return then drops. A branch that returns an error, or retries
//     the renewal, is no finding. So is such a function that keeps only
//     the error of an owner-checked renewal (a compare-and-expire
//     script): .Err(), or _, err := ....Int(): its reply, 0 when the key
//     is gone or another holder's, is the only sign of the loss, and a
//     lost lock renews "successfully" — when the function returns only an
//     error, or answers a constant true after the renewal (Renew(ctx)
//     (bool, error) ending in return true, nil). (A bare EXPIRE, or one
//     after a GET compared in Go, checks no owner in the renewal itself:
//     that is lockrenew's one report.) Such a wrapper
//     is judged also when a keep-alive calls it: a loop that drops the
//     wrapper's error and a wrapper that drops the reply are two defects
//     in two places, each reported where it is. A renewal function with
//     no results at all that throws away the whole outcome of an
//     owner-checked renewal (Extend() { _, _ = l.extends() }, the
//     fire-and-forget method of an interface) is reported at that call:
//     no caller can ever learn that the lock is gone.
//
// The callback passed to a project's own lock wrapper (a function that
// runs a func parameter while it holds a lock, in any package) is
// checked against the wrapper's TTL.
//
// Not reported: sections whose lock handle is passed to another function
// (it may be renewed or watched there); sections that watch Done, Err,
// Valid or the lock's context; TTLs or waits that are not constants;
// locks whose key names one period (time.Now().Format(layout) in it) no
// shorter than the TTL: once such a key lapses, its period is over and
// nobody takes it again.
//
// # Why it matters
//
//	t0   worker A: SET lock:sync NX PX 10000       -> OK, A holds the lock
//	t0   worker A: waits 30 s for the partner to settle (time.Sleep)
//	t10  the lock expires; worker B: SET lock:sync NX -> OK, B holds it too
//	t12  B starts the same sync
//	t30  A wakes up; A writes its (now stale) result over B's work
//
// Two processes run the "exclusive" section at once for 20 seconds. A
// watchdog that renews the lock fixes the TTL, but a renewal can fail
// (Redis unreachable, a pause longer than the TTL), so long work must
// also stop when the lease is lost: safelock closes Lease.Done() and
// cancels the ctx of Locker.Do; rueidislock cancels the context it
// returns. Dropping that context with "_" keeps the work going after
// the lock is gone.
//
// # Bad
//
//	rdb.SetNX(ctx, "lock:sync", token, 10*time.Second)
//	defer release(ctx, "lock:sync", token)
//	time.Sleep(30 * time.Second) // let the partner settle
//	resp, err := client.Do(req)
//
//	_, cancel, err := locker.WithContext(ctx, "sync")
//	defer cancel()
//	doWork(ctx)
//
// # Good
//
//	err := locker.Do(ctx, "sync", 10*time.Second, func(ctx context.Context, l *safelock.Lease) error {
//		req = req.WithContext(ctx) // cancelled when the lease is lost
//		resp, err := client.Do(req)
//		...
//	})
//
//	lockCtx, cancel, err := locker.WithContext(ctx, "sync")
//	defer cancel()
//	doWork(lockCtx)
//
// # Fix
//
// No suggested fix: renewing, watching loss and choosing a TTL change how
// the section behaves when the lock is lost, which only the author can
// decide. Use safelock.Locker.Do (it renews and cancels its ctx when the
// lease is lost) and pass its ctx to long calls, or acquire with a
// Locker made with safelock.WithAutoRenew and select on Lease.Done().
package locklease
