// Package lockvalue defines an Analyzer that reports Redis lock values
// that cannot identify the lock's holder.
//
// # Analyzer lockvalue
//
// lockvalue: report lock values that cannot tell one holder from another
//
// The value a lock key holds is how a holder proves, when it releases or
// renews, that the lock is still its own. It must be unique to one
// acquisition: a random token. The analyzer reports a key acquired with
// NX (SET NX, SETNX, SetNX, SetArgs{Mode: "NX"}, rueidis Nx(), a Lua
// script's SET NX of ARGV[1], or its SET where it found the key absent:
// if redis.call('GET', KEYS[1]) == false then SET ...) whose value is
// built only from
//
//   - constants: "1", 1, true, "locked", also one the acquire's Lua script
//     writes itself (SETEX KEYS[1] 60 '1' once it saw the key free;
//     reported at the script's call);
//   - the lock key itself, or the id it is made of (orderID in
//     "lock:order:"+orderID);
//   - a timestamp: time.Now() and anything computed from it (Unix,
//     UnixNano, Add, Format, String), GoFrame's clock (gtime.Now(),
//     gtime.Timestamp(), gtime.TimestampMilli() ...), and a clock the
//     code was given so that tests can replace it (r.now() of a now
//     func() time.Time field, the Now() time.Time of a Clock interface);
//   - the hostname, the process ID (os.Hostname, os.Getpid) or a
//     goroutine id parsed from runtime.Stack, alone or together, or with
//     a timestamp coarser than a nanosecond (host-pid-Unix()); with
//     t.UnixNano() the host or process and the nanosecond together tell
//     holders apart (hostname-UnixNano, the per-process leader id real
//     code uses), and that is not reported;
//   - a network address as text (net.IP's String, an IPNet's, a
//     net.Addr's, a netip.Addr's): it names the host, as its name does,
//     so a helper that walks net.InterfaceAddrs for the first IPv4
//     address (also one in another package whose bare return on an
//     error gives the zero value) yields a host identity; the report is
//     where the address becomes the lock's value, not in the helper,
//     which is right as it is;
//   - an unexported field nothing in the package ever sets (its zero
//     value, the same for every holder);
//   - for a Redisson-style hash lock, the owner field (HINCRBY k ARGV[2] 1)
//     or the value of a fixed field (HSET k "w" ARGV[1]; of several,
//     HSET k "owner" ARGV[1] "expire" ARGV[2], the one the script
//     compares: HGET k "owner" == ARGV[1]);
//   - one token per client: an unexported field of the receiver, set
//     only in a constructor or an option (owner: uuid.NewString() in
//     NewLocks), that an exported method stores for a key built from its
//     own parameters (TryLock(ctx, name)), itself or through a wrapper
//     or interface that stores the value it is passed
//     (r.cache.TryLock(ctx, key, r.ownerID, ttl)). However random, it is the same
//     for every caller of that client and every key, so it tells
//     processes (or clients) apart, not holders. Reported where the
//     value is made. A struct made for one key (a Mutex whose key is a
//     field), a token made for each acquisition, or one only ever passed
//     in (NewScoped(rdb, token)) is not reported;
//   - math/rand or math/rand/v2 output from a small range, strings drawn
//     letter by letter from it, a source of one's own (rand.New), or the
//     global source seeded with a constant or re-seeded in the function
//     that draws (rand.Seed(time.Now().UnixNano()) at each call). A full
//     63- or 64-bit draw from the global source (rand.Int63, rand.Int,
//     rand.Uint64), which Go seeds at random, is unique enough and not
//     reported; nor is one from a package Rand seeded once from the clock
//     (at its declaration, or by the one assignment in init), nor one from
//     a Rand the function is given (utils.RandomString(rng, n): its
//     caller chose the seed);
//   - a count: a lock taken with INCR (the caller that sees 1 holds it)
//     stores no owner at all. Reported at the INCR, or at the call of a
//     client wrapper that returns the count (n, _ := store.Incr(ctx,
//     key); return n > 1).
//
// The value is traced through local variables, struct fields set in a
// constructor in another file (a constructor that stores its parameter,
// NewElector(rdb, key, id), through what the package's own callers
// pass: a hostname-PID from every one of them is reported where it is
// made; a caller passing anything else, callers passing different
// constants, or none in the package, leave it the caller's), package
// variables, interface methods with
// one implementation in the package (t.Holder()), helper functions of
// the package (a one-statement helper with its parameters bound to the
// call's arguments: GetUnixMillis() { return UnixMillisOf(time.Now()) }),
// and exported helpers of other packages that use Redis, math/rand, os,
// runtime or time (by analysis facts; other packages are not read, for
// speed). A value made once and stored by several acquires of
// one function (a retry loop) is reported once.
// A weak value made outside the acquiring function (a constructor, a
// token helper of the package) is reported once, where it is made (in a
// constructor, or a helper that returns it, that makes it in a local
// first, id := fmt.Sprintf(...),
// at that line, not at the literal that stores id; a local assigned more
// than once, host, err := os.Hostname() with a fallback after it, at its
// first assignment), with every acquire
// that stores it as related information. A value put together from two
// or more parts that are not constants (fmt.Sprintf("%s-%d", host(),
// os.Getpid())) is made where they are put together, not inside the
// helper that made one of the parts. So is a value a caller makes and
// hands to an acquire helper (value := fmt.Sprint(time.Now().UnixNano());
// AcquireLock(ctx, key, value, ttl)): the helper acquires, the value is
// made on the caller's line.
// A helper that takes the key from its caller and stores a weak value of
// its own (Lock(key) setting "locked") is reported where it is called,
// when that caller releases or renews the lock.
// A lock package whose exported constructor or option keeps a parameter
// as the value its locks store (NewLocker(key, value, ttl, rdb), a
// WithHolder(holder) option) gets a fact, and a weak value passed there
// from another package (lock.NewLocker(key, "lockValue", 2, rdb), a
// constant holder wired in by dependency injection) is reported at that
// argument. Not when the lock sets the field afresh where it acquires
// (a token per Lock call), nor for a marker that is never released.
// A constructor that starts the loop that acquires (go e.campaign())
// keeps its parameter for every acquisition of that loop, and gets the
// fact too.
// A configuration field the caller may set (cfg.InstanceID) that the
// package gives a default when it is left unset, before the value is
// read (if cfg.InstanceID == "" { cfg.InstanceID, _ = os.Hostname() },
// in the same function or in a method called on the same variable
// first, cfg.setDefaults()), is traced through that default: when every
// default assigned there is weak, it is the value of everyone who
// configures nothing, and it is reported at the default, the line to
// change. A random default, or one random branch of it, is not
// reported; nor is a default set in another package (a config
// package's envOrDefault), which is not read. A command-line flag is
// traced the same way through its default (*nodeID of nodeID :=
// flag.String("node-id", "broker-1", ...), also a FlagSet's or
// spf13/pflag's, StringP included), reported at the flag's definition.
// Formatting (fmt.Sprintf, strconv, hex, base64, concatenation) keeps the
// sources of its parts: hostname + PID + a timestamp in seconds is still
// reported.
//
// Only locks are judged: a key acquired with NX that is later released,
// renewed (outside the code that acquires it) or written with IFEQ. An
// NX key that is never released is a deduplication or idempotency
// marker, whose value does not matter, and an NX whose result nobody
// reads decides nothing (a cache fill). Not reported either: values from
// crypto/rand, UUIDs (github.com/google/uuid, github.com/gofrs/uuid, ...),
// safelock.NewToken (unless kept one per client, above), values passed in
// by a caller, and any value with a
// part locklint cannot trace: one unique part makes the whole unique.
//
// # Why it matters
//
//	t0   A: SET lock:job 1 NX PX 10000   -> OK, A holds the lock
//	t1   A: pauses 12 s (GC, a slow call, a network partition)
//	t10  lock:job expires
//	t11  B: SET lock:job 1 NX PX 10000   -> OK, B holds the lock
//	t13  A: wakes and releases: GET lock:job == "1"? yes -> DEL
//	t14  C: SET lock:job 1 NX PX 10000   -> OK; B and C both run
//
// A's owner check passed because every holder stores "1": it deleted B's
// lock. A timestamp, a hostname or a PID fails the same way for holders
// that share it (goroutines of one process, two pods started in the same
// second), and math/rand values repeat across processes seeded alike.
//
// # Bad
//
//	rdb.SetNX(ctx, key, "locked", ttl)
//
//	rdb.SetNX(ctx, key, time.Now().UnixNano(), ttl)
//
//	host, _ := os.Hostname()
//	conn.Do("SET", key, fmt.Sprintf("%s-%d", host, os.Getpid()), "NX", "PX", 30000)
//
//	func NewMutex(rdb *redis.Client, name string) *Mutex {
//		return &Mutex{rdb: rdb, key: "lock:" + name, value: strconv.Itoa(rand.Int())}
//	}
//
// # Good
//
//	token := safelock.NewToken() // 128 bits from crypto/rand
//	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
//	...
//	safelock.ReleaseKey(ctx, rdb, key, token)
//
//	lease, err := safelock.New(rdb).TryAcquire(ctx, key, ttl)
//
// # Fix
//
// When the value is a literal written in the acquire ("1", 1, true) and
// nothing reads or compares the lock's value (no GET, no compare-and-delete
// or compare-and-expire script, no IFEQ), the suggested fix replaces the
// literal with safelock.NewToken(), which changes nothing else. When
// something compares the old value, replacing it alone would break that
// comparison, so there is no fix: keep the token in a variable or field,
// store it with the acquire and pass the same token to
// safelock.ReleaseKey and safelock.RenewKey.
package lockvalue
