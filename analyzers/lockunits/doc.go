// Package lockunits defines an Analyzer that reports Redis TTLs given in
// the wrong unit.
//
// # Analyzer lockunits
//
// lockunits: report TTLs passed to Redis in the wrong unit
//
// Redis counts EX and EXPIRE in seconds, PX and PEXPIRE in milliseconds,
// EXAT/PXAT/EXPIREAT/PEXPIREAT in Unix seconds or milliseconds; go-redis
// and rueidis's Ex/Px take a time.Duration, which counts nanoseconds. The
// analyzer reports a TTL whose unit is known from the source and is not
// the one the call expects:
//
//   - a time.Duration passed raw after EX/PX or to EXPIRE in Do(...) or
//     redigo's Do: go-redis v9 (and v8.11.5) sends its nanosecond count,
//     so a 30s TTL becomes EX 30000000000 (about 951 years); go-redis v6,
//     v7 and older v8 fail with "can't marshal time.Duration"; redigo
//     sends the text "30s", which Redis rejects. int64(d) and
//     d.Nanoseconds() are nanoseconds too;
//   - seconds where milliseconds are expected and the other way round:
//     d.Seconds() after PX, d.Milliseconds() after EX, int64(d/time.Second)
//     to PEXPIRE, a variable named ttlMs after EX, rueidis
//     ExSeconds(d.Milliseconds());
//   - a bare number where go-redis or rueidis expects a time.Duration:
//     Expire(ctx, k, 10) and SetNX(ctx, k, v, 30) are 10 and 30
//     nanoseconds. go-redis v8 and v9 round a positive TTL under 1 ms up
//     to PX 1 (and EXPIRE 1 for Expire), so the lock is gone almost at
//     once; v6 and v7 send PX 0 (rejected) or EXPIRE 0 (the key is
//     deleted); rueidis Ex(10) sends EX 0 (rejected). Also
//     time.Duration(ttlSeconds) without a unit, and d/time.Second given
//     where a time.Duration is expected; and, for a lock's acquire,
//     time.Duration(expire) of an integer parameter (LockUser(uid,
//     expire int64) called with 60 takes 60ns), since a count of
//     nanoseconds is no one's way to pass a TTL;
//   - a count multiplied by the wrong unit: time.Duration(ttlMs) *
//     time.Second;
//   - Unix times in the wrong unit (UnixMilli() after EXAT, Unix() after
//     PXAT), a Unix time given as a TTL, a TTL given as a Unix time;
//   - the same mistakes in the ARGV of a Lua script that passes ARGV[n]
//     to SET ... PX or PEXPIRE (go-redis Eval and Script.Run, redigo
//     Script.Do): acquireScript.Run(ctx, rdb, keys, token, ttl) sends ttl
//     in nanoseconds. Scripts in literals, constants, variables and
//     //go:embed files of any package (a package of scripts only
//     included). A script that takes one ARGV in two units (PX to create,
//     EXPIRE to refresh) is wrong whatever is passed: the use the value
//     does not fit is reported, without a fix;
//   - the same mistakes through helpers, in any package: a function that
//     passes a parameter with no unit of its own (ttl int64) on to EX,
//     PX, EXPIRE, PEXPIRE or a script's ARGV used so gets a fact, and its
//     callers' arguments are checked as if they stood there
//     (writeLock(conn, key, secret, int64(10*time.Second)) sends
//     nanoseconds to EX), also through helpers of helpers; and a
//     time.Duration parameter a function hands unchanged to go-redis
//     (func (r *Cache) SetNX(ctx, key, v, expiration time.Duration))
//     makes a caller's bare r.SetNX(ctx, key, "1", 30) 30 nanoseconds,
//     as it would be at go-redis;
//   - a number turned into text by a string conversion, string(rune(n))
//     or string(n), where a count of seconds or milliseconds goes (after
//     EX/PX, to EXPIRE, in a script's ARGV): Go makes the character with
//     that code point, not the digits (10 s becomes "\n"). No fix is
//     suggested; format it with strconv.Itoa.
//
// It applies to every key with a TTL, not only locks. A unit is known
// from a type (time.Duration, time.Time), a method (Seconds, Milliseconds,
// Unix, UnixMilli), division or multiplication by a time unit, or a name
// ending in a unit (ttlSeconds, lockTimeoutMs, expire_sec). Plain
// integers with no such hint are left alone: PX 30000 may well mean 30 s.
// A time.Duration divided by a plain number (ttl/2) is still a duration.
//
// # Why it matters
//
//	t0     worker A: SetNX(ctx, "lock:job", token, 30)  -> go-redis sends SET ... PX 1 NX
//	t0+1ms the lock key expires
//	t0+2ms worker B: SetNX(ctx, "lock:job", token, 30)  -> true: A and B both run the job
//
// The opposite mistake is as bad: a 30 s TTL sent as EX 30000000000 never
// expires, so a holder that crashes blocks the lock for good; a TTL that
// redigo sends as "30s" fails every acquire.
//
// # Bad
//
//	rdb.SetNX(ctx, key, token, 30)                             // 30ns
//	rdb.Expire(ctx, key, 10)                                   // 10ns: EXPIRE 1
//	rdb.Do(ctx, "set", key, token, "nx", "px", ttl)            // ttl is a time.Duration
//	conn.Do("SET", key, token, "NX", "PX", ttl.Seconds())      // seconds after PX
//	conn.Do("SET", key, token, "NX", "EX", ttl.Milliseconds()) // milliseconds after EX
//	rdb.Expire(ctx, key, time.Duration(cfg.TTLSeconds))        // seconds as nanoseconds
//
// # Good
//
//	rdb.SetNX(ctx, key, token, 30*time.Second)
//	rdb.Expire(ctx, key, 10*time.Second)
//	rdb.Do(ctx, "set", key, token, "nx", "px", ttl.Milliseconds())
//	conn.Do("SET", key, token, "NX", "PX", ttl.Milliseconds())
//	rdb.Expire(ctx, key, time.Duration(cfg.TTLSeconds)*time.Second)
//	lease, err := safelock.New(rdb).TryAcquire(ctx, key, 30*time.Second)
//
// # Fix
//
// Suggested fixes, only where the intended unit is certain:
// d.Seconds() after PX becomes d.Milliseconds(), a time.Duration after
// PX becomes d.Milliseconds() and after EX int64(d.Seconds());
// milliseconds named as such after EX swap the word to PX (and seconds
// after PX to EX); time.Duration(ttlSeconds) becomes
// time.Duration(ttlSeconds)*time.Second; d/time.Second where a Duration is
// expected becomes d; time.Duration(ttlMs)*time.Second becomes
// *time.Millisecond; t.UnixMilli() after EXAT becomes t.Unix(). A bare
// number gets a fix only when its unit is evident (rueidis Ex and go-redis
// SetEx mean seconds, rueidis Px and go-redis PExpire milliseconds, or the
// constant is named ttlSeconds); otherwise the message says to write
// 10*time.Second or the unit meant. For locks, safelock.Locker.TryAcquire
// takes the TTL as a time.Duration and sets it with the acquire.
package lockunits
