// Package safelock is a Redis lock for go-redis v9 with fencing tokens,
// owner-checked release and renew, and leases that know when they are lost.
//
// # Set ContextTimeoutEnabled on the client
//
// go-redis applies a ctx deadline to a connection that has stopped
// answering only when the client has ContextTimeoutEnabled: true;
// otherwise a call waits for the client's ReadTimeout (5 s by default in
// v9.23) or longer, whatever its ctx says. Measured on a stalled link: with a
// default client, Renew with a 300 ms ctx returned after 5.0 s and
// TryAcquire after 10 s; with the option, after 301 ms and 553 ms. A lease
// is safe either way (Done closes at the safe deadline, without waiting
// for a stuck renew, and Release does not wait for one past its own ctx),
// but only with the option do calls return when their ctx says:
//
//	client := redis.NewClient(&redis.Options{
//		Addr:                  addr,
//		ContextTimeoutEnabled: true,
//	})
//	locker := safelock.New(client)
//
// The same field exists on redis.FailoverOptions, redis.ClusterOptions and
// redis.UniversalOptions.
//
// # Taking a lock
//
// [New] wraps a plain, failover or cluster client. [Locker.TryAcquire]
// makes one attempt in one round trip: it sets the key to a random token
// with NX and PX, and issues a fence from a counter by INCR, in one
// pipeline (the first attempt on a deployment, a fair lock's and
// Acquire's run [AcquireScript] instead, which does both in one atomic
// step). Not being atomic does not matter: the INCR runs after the SET on
// the same connection, and one issued after the new key expired reaches
// the caller after the lease's safe deadline, so that lease is refused; a
// refused attempt's INCR only raises the counter. A held key costs one
// more round trip (GET: a retried attempt that finds its own token holds
// the lock). go-redis runs pipelines on a connection pool of their own
// (redis.Options.PipelinePoolSize). The counter lives at "safelock:fence:{key}" (or, when the key has a
// {hash tag}, under that tag), in the key's hash slot, so it works on
// Redis Cluster. [Locker.Acquire] waits in a queue in Redis, and a
// release hands the lock to the longest waiting (see Fairness), which
// takes it without a round trip; an uncontended release looks at no
// queue and publishes nothing (a waiter marks the key as waited for): a
// cycle of TryAcquire and Release runs five commands on the server, SET
// NX and INCR, then EVALSHA with its GET and DEL. With [NewRedlock]
// a release wakes the longest waiter instead, which retries; between
// wake-ups waiters back off exponentially with full jitter, capped, and
// never sleep past
// the holder's remaining ttl. [Locker.Do] acquires, runs a function with a
// context that ends when the lease is lost, renews meanwhile, and releases.
//
// # What a lease guarantees
//
// [Lease.Release] and [Lease.Renew] act only if the key still holds the
// lease's token, atomically, in one round trip each; otherwise they return
// [ErrLeaseLost] and leave another owner's lock alone. Scripts go by EVALSHA
// and are sent in full only when the server does not know them (NOSCRIPT).
// On Redis 8.4 and later, renew uses SET IFEQ, and Lua otherwise (a
// release may hand the lock over, which no native command does). The acquire reply carries the server's version, so the
// Locker knows which without a round trip of its own; a server that does
// not report it (before 7.0) is asked by trying once.
//
// A lease counts itself lost at its safe deadline, measured on the local
// monotonic clock: the start of the acquire (or of the last successful
// renew) plus the ttl minus a drift allowance of ttl/100 + 2ms. Redis
// cannot let anyone else in before the ttl has passed on its own clock, so
// as long as the two clocks drift apart by less than the allowance, [Lease.Done]
// closes before another client can take the lock. With [WithAutoRenew] a
// watchdog renews at about a third of the ttl and closes Done as soon as a
// renew finds the token gone; a renew that fails for other reasons
// (network) is retried until the safe deadline.
//
// Done only helps a process that looks at it. A process that is paused (a
// long GC, a frozen VM, a slow disk) past its deadline can still write after
// another client took the lock; no lock can prevent that. Only a fence
// checked by the protected resource stops such a late write: pass
// [Lease.Fence] (and [Lease.Token]) with every write and let the resource
// refuse a fence lower than the highest it has accepted, and an equal one
// unless it comes from the same grant (the same token). Package
// safelock/fence has helpers for SQL and Redis that apply this rule.
//
// # What Redis guarantees, and what not
//
// The lock is as safe as the key. A primary that restarts without
// persistence forgets every lock; a failover to a replica that had not yet
// received the acquire hands the lock to a second owner. [WithReplicaAck]
// pipelines WAIT after the acquire and fails unless enough replicas have
// the key, and after each renew, which fails (keeping the lease's old
// deadline) unless enough replicas have the new ttl; that narrows the
// window but does not close it (WAIT does not make Redis strongly
// consistent).
//
// # Fences
//
// A fence is the counter plus one (INCR); a counter starts from the
// server's TIME in microseconds, so fences are large numbers (about 1.8e15
// in 2026), not 1, 2, 3; they fit int64 exactly and stay below 2^53
// (exact in Lua) until the year 2255. On one server they are strictly
// increasing per key (counters never expire: one small key per lock
// name). When the counter is lost with the data (a restart without
// persistence), it starts again from TIME, so the next fence still
// exceeds every fence issued before, as long as the server's clock has
// not gone back by more than the time since those fences were issued and
// fewer than one fence per microsecond was issued on average. A failover
// to a replica that missed the last INCRs can issue those fences again:
// [WithReplicaAck] makes every grant wait until enough replicas have its
// counter, which narrows that window as it does the lock's. The lock
// itself can still be granted twice in those events; the fence is what
// lets the resource tell the later holder. Reading TIME only when the
// counter is missing keeps an acquire at two commands besides its
// EVALSHA.
// On Redis Cluster each key's counter lives with its slot, so this holds
// per key across the slot's failovers.
//
// # Fairness
//
// On one deployment ([New]) waiters queue in Redis (a sorted set by
// arrival and a hash of each waiter's place, in the key's slot), and a
// release hands the lock directly to the head of the queue: the release
// script sets the key to the head's token with the head's ttl, issues
// its fence, and publishes "token=fence" on the channel of the head's
// Locker, so the head takes the lease without a round trip and nobody
// else wakes; when the head waits in the releasing Locker, that Locker
// tells it from the script's reply and nothing is published. Without options the lock is not strictly fair: a caller
// that finds the key free takes it, queue or not (TryAcquire, and the
// first attempt of Acquire); but a held lock is only ever freed for a
// waiter, unless its holder lets it expire. With [WithFairness] a caller
// takes a free key only when nobody is queued ahead of it (TryAcquire
// then fails while anyone is queued), and a free key found while others
// wait is handed to the head. All clients of a key should use the same
// mode. The head's safe deadline counts from the moment it sent
// its last attempt, the one that found it still queued: the handoff
// happened after that attempt ran (its fence is above the counter the
// attempt saw), so the key expires no earlier than that moment plus the
// ttl, whatever the delay of the message. When that would leave less
// than three quarters of the lease (a long wait since the waiter last
// asked), or WithReplicaAck is set, the head confirms with one renew
// and the deadline counts from the renew. A waiter asks again only to
// keep its place (every half second by default), so a handoff costs
// the release alone. A waiter whose process died is skipped at once:
// PUBLISH on its Locker's channel reaches nobody. Where that cannot be
// told (on Redis Cluster PUBLISH counts the listeners of one node only,
// and a waiter without pub/sub only polls), the key is handed over only
// for as long as the waiter's place lives (two seconds), and the waiter
// renews it to its ttl. A waiter that stops asking drops out after about
// two seconds; one whose context ends leaves at once, and passes the
// lock on if it was handed it meanwhile. A lock that expires is freed
// without a release, and nobody is told: the first three waiters (as
// their last ask found the queue) ask again when the key that ask found
// held would expire, the others only to keep their place (every half
// second or so), and the first to find the key free hands it to the
// head. So a handoff publishes one message, to the new holder alone;
// with a ttl shorter than the keep-place pause, a queue asks about three
// times per ttl however long it is, and a freed key waits at most a
// keep-place pause when the waiters that watched it were all served.
//
// With [NewRedlock] waiters register in a sorted set on each node by
// their first arrival, and a release wakes only the longest waiting one,
// whatever process it is in (it publishes that waiter's token), so a
// release costs one retry, not one per waiting process; a waiter that
// gives up leaves the set, and one that died drops out with the set's ttl
// (its wake-up is then lost, and the others find the lock by their
// backoff, at most the Locker's backoff cap later). A Locker listens on
// every node: a release reaches the nodes one by one, so the waiter woken
// by the first may find the others still held; the nodes released after
// wake it again, and it keeps its place meanwhile (it rejoins each set
// at its head), while the nodes it took in the failed attempt are given
// back without waking anyone.
//
// # Redlock
//
// [NewRedlock] takes each lease on a majority of independent Redis
// deployments, attempting all in parallel with a short per-node timeout
// ([WithNodeTimeout]). The lease's safe deadline is the attempt's start
// plus the ttl minus the drift allowance, so the time the attempt took
// counts against it; a failed attempt is released on every node; renew
// and release need a majority. The fence of a Redlock lease is the highest
// fence among the granting majority, and before returning, the lease lifts
// the counters of those nodes to it (a second round trip). Any later
// majority shares a node with this one, so its fence is higher. When nodes
// lose their counters (a restart that loses writes), their fences come
// from their clocks, and a later fence is still higher as long as no
// node's clock runs behind the fastest clock of an earlier grant by more
// than the time between the two grants. Redlock is not a consensus system:
// nodes that restart empty can let two leases overlap, which is why the
// fence check at the resource matters; a fence issued twice (the clock
// assumption broken) is caught by the fence helpers' rule that an equal
// fence writes only with its own grant's token.
//
// # Errors
//
// Errors wrap the package's sentinel errors ([ErrNotAcquired],
// [ErrLeaseLost], ...) or, when ctx ended, ctx.Err(), so errors.Is works
// on them. An error after ctx ended also names the last underlying error
// when there is one ("context deadline exceeded (last error: dial tcp ...:
// connection refused)"). go-redis itself returns only ctx.Err() when ctx
// ends during its retries, so [New] and [NewRedlock] add a hook to a
// plain or failover client that remembers its last failed dial (one per
// client, whatever the number of Lockers; it changes nothing else). On a
// cluster client the hook goes on node connections made after New.
//
// # Other clients
//
// Code that manages its own client and token can use [NewToken],
// [ReleaseKey] and [RenewKey]; redigo and rueidis users can run
// [AcquireScript], [ReleaseScript] and [RenewScript] themselves.
package safelock
