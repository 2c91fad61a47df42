// Package lockexpiry defines an Analyzer that reports Redis locks taken
// without an atomic expiry.
//
// # Analyzer lockexpiry
//
// lockexpiry: report locks acquired without an atomic TTL
//
// A Redis lock must get its TTL in the same command that creates it. The
// analyzer reports a key acquired with NX (SETNX, SetNX with expiration 0,
// SET ... NX without EX/PX/EXAT/PXAT, SetArgs{Mode: "NX"} without TTL or
// ExpireAt, a rueidis Set().Nx() without Ex/Px), or with GETSET (the old
// recipe: the lock is ours when the old value was empty or nil, or was
// the expired stamp a GET read; GETSET sets no TTL) when
//
//   - a separate EXPIRE or PEXPIRE later gives the same key its TTL, or
//   - nothing ever gives it a TTL, yet it is released like a lock (DEL),
//     or its key and the function taking it both name a lock and that
//     function reads whether it won (the release may be out of sight: a
//     slice of taken keys handed to UnlockKeys). A wrapper's TTL
//     parameter is judged at each caller: SetNX(key, 1, 0) through the
//     project's own SetNX(key, v, ttl) is an acquire without a TTL.
//
// The acquire and the release may be in different functions, methods,
// files or packages, and behind helpers and the project's own interfaces.
// Not reported: SETNX and EXPIRE queued together in one MULTI/EXEC
// (TxPipeline, TxPipelined), which Redis runs atomically; NX keys that are
// never deleted and never given a TTL (deduplication and idempotency
// markers), and locks taken by a function named to never expire
// (LockForever, AddLockDisExpire); NX keys that are data rather than locks (idempotency and
// dedup records, seeds, cache fills nobody checks, Pause/Resume flags: no
// lock word near them, and either a record's name or an outcome nobody
// reads; claims kept when the work succeeds and deleted only when it
// fails); keys whose TTL may come from a script or command locklint
// cannot read in the function that takes or releases them (a TTL a
// helper gives a key of another kind, such as the execution lock
// "task:lock:"+execID taken while the task lock "cron:lock:task:%d" is
// held, is not one); _test.go files.
//
// # Why it matters
//
//	t0  worker A: SETNX lock:job 1          -> OK, A holds the lock
//	t1  worker A: crashes, is OOM-killed, or its connection drops
//	t2  (EXPIRE lock:job 30 is never sent)
//	t3  worker B: SETNX lock:job 1          -> 0, forever
//
// The key has no TTL, so it outlives its holder and every later acquire
// fails until someone deletes it by hand. A deploy that restarts pods at
// the wrong moment is enough.
//
// # Bad
//
//	ok, err := rdb.SetNX(ctx, "lock:"+id, token, 0).Result()
//	if err != nil || !ok {
//		return err
//	}
//	rdb.Expire(ctx, "lock:"+id, 30*time.Second)
//
//	conn.Do("SETNX", key, token)
//	conn.Do("EXPIRE", key, 30)
//
// # Good
//
//	ok, err := rdb.SetNX(ctx, "lock:"+id, token, 30*time.Second).Result()
//
//	conn.Do("SET", key, token, "NX", "PX", 30000)
//
//	lease, err := safelock.New(rdb).TryAcquire(ctx, "lock:"+id, 30*time.Second)
//
// # Fix
//
// For go-redis SetNX(ctx, key, value, 0) or SetArgs{Mode: "NX"} followed
// by an Expire or PExpire statement in the same function, the suggested
// fix moves the TTL into the acquire and deletes the Expire line, when the
// TTL expression already has its value at the acquire. Elsewhere set the TTL in the acquire
// (SET key value NX PX ms), or use safelock.Locker.TryAcquire, which sets
// the TTL, a random token and a fencing token in one round trip.
package lockexpiry
