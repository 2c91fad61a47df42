// Package lifecycle joins Redis commands into lock lifecycles: which key is
// acquired with NX where, and where the same key is released, renewed,
// read or overwritten — across functions, methods of one type, files and
// packages. Every locklint rule is a short function over its [Result].
//
// # Layers
//
//		Go source ─► redismodel ─► lifecycle ─► rules (analyzers/<name>)
//		            (one Command   (Ops joined
//		             per client     into Locks,
//		             call)          FuncFacts)
//
//	  - [github.com/locklint/locklint/analyzers/internal/redismodel]: a
//	    Command per client call (go-redis v6–v9, redigo, rueidis): Name,
//	    Keys, Value, Opts (NX, XX, GET, KEEPTTL, Expiry, IfEq), TTL and Unit,
//	    Script (analysed Lua), Partial, and In (a Context: enclosing
//	    function, defer/go, MULTI/EXEC, pipeline, WATCH).
//	  - [github.com/locklint/locklint/analyzers/internal/luascript]: what a
//	    Lua script does to each KEYS[n] and whether it compares first.
//	  - [github.com/locklint/locklint/analyzers/internal/keyexpr]: when two
//	    key expressions name the same key.
//	  - this package: [Op]s per function, [Lock]s per package, [FuncFact]s
//	    for callers.
//
// # Using it in a rule
//
//	var Analyzer = &analysis.Analyzer{
//		Name:     "lockexample",
//		Requires: []*analysis.Analyzer{lifecycle.Analyzer},
//		Run: func(pass *analysis.Pass) (any, error) {
//			res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
//			for _, l := range res.Locks {
//				for _, op := range l.Ops {
//					if op.Kind == lifecycle.Delete && !op.Checked && !op.Judged { ... }
//				}
//			}
//			return nil, nil
//		},
//	}
//
// A package that imports no Redis client, and no package that does, gets
// an empty Result at once (check len(res.Locks) == 0 and return).
//
// Messages name a key with [Op.KeyText] (or [KeyText] for a key held
// elsewhere): the key as written where the diagnostic points, so every
// rule names the same key the same way.
//
// # Ops
//
// An [Op] is one operation on one key, seen from a function of this
// package. Direct ops come from a command sent right there (Op.Cmd holds
// the full [redismodel.Command]); summarised ops come from a call to a
// helper whose [FuncFact] says what it does (Op.Via is the helper,
// Op.ViaWhere the file:line inside it, Op.Cmd is nil). Kinds:
//
//	Acquire  SET NX, SETNX, SetNX, SetArgs{Mode:"NX"}, rueidis Nx(), a script's SET NX
//	         (or its SET after it saw the key absent: GET == false, not GET, EXISTS == 0)
//	         TTL: expiry set atomically; NoTTL: certainly none (0, absent, KEEPTTL)
//	Delete   DEL, UNLINK, GETDEL, DELEX, a script's DEL       Checked: owner-checked
//	Expire   EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, a script's  Checked: owner-checked
//	Read     GET
//	Write    SET without NX (TTL, Checked when IFEQ)
//	Unknown  a command on the key we cannot read (unresolved script; spread args, unless a known script changes only its KEYS)
//
// Checked is true for a compare-and-delete (or compare-and-expire) script,
// DELEX/SET IFEQ, and for a delete/expire queued in MULTI/EXEC inside a
// WATCH that read the same key (go-redis Watch callback + TxPipelined, or
// redigo WATCH ... MULTI ... EXEC). ReadBefore points at a GET of the same
// key earlier in the same function when the op is not Checked: the
// GET-compare-DEL shape, two round trips with a race between.
//
// Op.Value is the value an Acquire stores: the argument at this call, or,
// for a helper that makes the token and returns it (FuncFact.ReturnsValue),
// the variable the caller assigns that result to (tok in
// tok, ok := acquire(ctx, key)). Op.In says whether the call runs in a
// defer, a goroutine, MULTI/EXEC (In.Multi) or a non-atomic pipeline
// (In.Pipeline).
//
// # Locks
//
// A [Lock] is a key acquired with NX somewhere in the package, with every
// other op on the same key (Lock.Ops, source order). Keys match by
// [keyexpr.Same]: exact rendering within one function, the "shape"
// (locals and parameters as *) across functions when it is anchored by a
// constant, a field, a package variable or a helper call (also one of a
// function kept in a field or a package variable: s.keyFunc(chat)). Inside a
// format or concatenation with a constant that names keys, or with a
// configured prefix named for locks (s.cfg.LockKeyPrefix + ..., a field of
// the receiver or a package variable), a field of a local or parameter
// counts as a local, and so does a local that only copies one (id :=
// w.ID): Sprintf("seat_lock:%d:%d", t, seat.SeatNo) is the key
// Sprintf("seat_lock:%d:%d", t, seatNo) makes. A lock API
// whose functions take the key as a parameter (Lock(key) / Unlock(key)
// methods of one type, or functions of one file) is joined by role when
// the acquire stores a value made inside the function and the functions
// are named like lock operations (ByParam: Unlock, Release, or a word
// such as Del, Rm or Un beside a lock word: RmLock, UnRedisLock); a thin wrapper of the client
// (SetNX(key, v) / Del(key)) is not, and its callers join instead. A
// sibling named only by a data verb (Remove, Clear, Reset) joins an
// acquire that leaves the lock to its caller (LockSlot / RemoveSlot), not
// one that deletes the key it took (LockCall(key, fn) runs fn and gives
// the lock back itself, so a cache package's Remove(key) is no release). On a
// type not named as a lock, a renewal joins only when its name speaks of
// the lock (RenewLease, not a cache's ExtendTTL).
//
// A key stored into a struct field in the function that acquires it
// (return &Lease{key: key}, or l.key = key), or passed there to a
// function of the package that stores that parameter in a field
// (return newLock(c, key, token), newLock returning &Lock{key: key}),
// also names the lock wherever that field is used, so a Release method
// of the returned value joins. A handle that keeps only the name the key
// was made from (SETNX(prefix+key) beside &jobLock{key: key}) names the
// lock where it rebuilds the key with the same prefix (prefix+l.key),
// not where it puts another prefix before the name. Acquires whose keys name one field
// (TryLock and Lock building the same handle) are one lock.
//
// Keys that are never acquired with NX (caches, sessions, rate-limit
// counters) never form a Lock, so rules over Locks leave them alone.
// An NX key is not always a lock: real code seeds records, writes
// idempotency and dedup markers, toggles flags and fills caches with NX.
// [Lock.IsLock] asks for evidence before rules report: a lock word (lock,
// mutex, lease, sema, leader, master, guard, and markers of work in
// progress: processing, inprogress, running) in the key, the variable or
// field holding it, or the functions (and receiver types) around it (the
// work-in-progress words only in the name of the function that sends the
// command: a caller named triggerPostProcessing names its own work; a
// receiver type named as a leader election, redisElector or
// LeaderElection, as a whole word, so not a Selector); or an
// acquire whose outcome is read, or that its own function releases. It is
// data when it is a state flag ([Lock.Flag]: NX without TTL, set and
// cleared by different functions, nothing named like a lock), when it is
// a throttle (its key names a cooldown, debounce, rate limit or touch and
// no lock, every acquire sets a TTL, and nothing deletes or renews it: a
// lock word only in the variable holding the key does not count), when its
// outcome is never read and its function does not delete it, or when its
// key or function names a record (done, complete, processed, seen,
// dedup, nonce, idem(potent), replay, ...; "once" as a word of the key:
// exp:once:<uid>, DoOnce; or a method of a type named as an idempotency
// or dedup store, or of any type of a package named so: in package
// idempotent a lock word in a type's name, Guard.Check's, is no evidence,
// though a method named as taking a lock, AcquireLock, still is), or its key names work waiting
// to run (pending, queued, scheduled: a marker that keeps a second retry
// or job from being scheduled, dropped by whoever runs it; a function
// named after pending work may lock each item it takes, so only the key
// counts). It is a claim, whatever its
// name, when the key is kept once the work succeeded and deleted only on
// branches that leave on failure (a "payment in progress" flag cleared
// when the channel call fails, a cron period claim dropped so the next
// tick retries), in the function that takes it, the worker it starts, or
// a helper or a local closure (rollback := func() {...}) called only on
// such branches, or in a last statement of the taking function that
// tests for failure (if !sent { DEL }); and nothing gives it back as a
// lock is given back, when the work is done (a delete before the
// function takes the key, outside a loop around both, clears it and
// gives nothing back): no delete on the way out of the work, no
// release helper (Unlock, ClearSlot) elsewhere, no compare-and-delete, no
// renewal. Every rule over Locks stays silent on data.
//
// # Facts
//
// [FuncFact] is exported for every function with ops on parameter or
// anchored keys: "acquire $p1$ without ttl", "delete $p1$". Callers apply
// it with the call's arguments, in this package (fixed point over
// helpers calling helpers, callees first, each op listed once so that
// a cycle of helpers settles) and in importing packages. An interface method
// whose only implementation is in the same package gets the
// implementation's fact; so does one with several implementations of
// which exactly one sends Redis commands (a cache interface with a
// go-redis implementation and an in-memory stand-in: on Redis it does
// what the go-redis one does, and a lock taken through it has the same
// defects on either). A call of an interface method that no package
// resolves so (a domain port, or a narrow interface of the caller) gets
// the fact of its only implementation in the project, among the
// packages the caller imports (soleimpl.Project). An acquire's ValueParam is the parameter it
// stores, or whose serialization it stores (data, err := json.Marshal(v),
// r.serialize(v), or the Marshal/Encode/Serialize method of a serializer
// kept in a package variable or field, as jsoniter's is): a constant stays
// constant. FactOp.InLock (Op.Judged at callers) says the
// helper's own package already saw the op in a lock (not a client
// adapter's SetNX(key)/Del(key) named after their commands on the
// caller's key, joined there only by the prefix they add: the callers
// judge those), so rules report the
// defect there, once. A wrapper's own parameters travel in its fact too:
// TTLParam (a caller's constant 0 is an acquire without expiry) and
// ScriptParam/ScriptKey (exec(ctx, c, key, script, args...): the
// caller's script says what the EVAL does to the key). [ScriptFact]
// carries Lua text of package-level script variables across packages;
// [ClientFact] marks interfaces declared with //locklint:client go-redis;
// [RawWrapperFact] marks functions that forward their command name and
// arguments to redigo (a client library's Manager.Do(cmd, args...)), so
// their callers' calls read as the commands they send;
// [PackageFact] marks packages that use Redis.
//
// An INCR whose reply is compared with 1 and nothing else (if n > 1 {
// busy }) is an acquire: the first caller wins. So is the call of a
// function that returns an INCR's reply as its first result (a client
// wrapper's Incr, FuncFact.Counts), when the caller compares that result
// with 1 alone; the acquire is the caller's ([Op.Counted]). A counter compared with a
// limit is a rate limiter and no lock, and so is one whose reply only
// opens its window (if n == 1 { EXPIRE }, and nothing else reads it),
// whatever its key is called (login:lock:<account> counting failures).
//
// # Stability
//
// Rules depend on the exported names of this package, redismodel,
// keyexpr and luascript; changes are additive only.
package lifecycle
